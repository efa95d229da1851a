import type { AnalysisType, RecentJob } from '@fieldline/contracts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { fetchRecentJobs } from '../../billing/billing-api.ts';
import { formatDate, formatHours, formatTokens } from '../../billing/usage-rules.ts';
import { RecentStudies } from './RecentStudies.tsx';

/** Every analysis type by name (qa31: vibration runs were listed as bare "modal" and "harmonic"). */
const ANALYSIS_NAMES: Record<AnalysisType, string> = {
  em: 'Electromagnetic analysis',
  'em-time': 'Electromagnetic transient',
  'em-eigen': 'Electromagnetic eigenmodes',
  thermal: 'Thermal analysis',
  'thermal-time': 'Thermal transient',
  structural: 'Structural analysis',
  modal: 'Vibration: natural frequencies',
  harmonic: 'Vibration: harmonic response',
  'thermal-structural': 'Thermal stress',
  magnetostatic: 'Magnetostatics',
  'eddy-current': 'Eddy currents',
  'tetra-only': 'Volume meshing',
};

export function jobTitle(job: Pick<RecentJob, 'analysis_type' | 'kind'>): string {
  return (
    ANALYSIS_NAMES[job.analysis_type as AnalysisType] ??
    (job.kind === 'meshing' ? 'Meshing' : job.analysis_type)
  );
}

const STATUS_TONE: Record<string, string> = {
  completed: 'ok',
  failed: 'bad',
  cancelled: 'muted',
  running: 'info',
  queued: 'info',
};

/** Spec 000 §2 Recent Activity: the user's latest jobs, each linking back into the simulator. */
export function RecentActivity() {
  const [jobs, setJobs] = useState<RecentJob[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void fetchRecentJobs().then((outcome) => {
      if (!live) return;
      if (outcome.ok) setJobs(outcome.value);
      else setError(outcome.message);
    });
    return () => {
      live = false;
    };
  }, []);

  return (
    <section className="panel-card dash-activity" aria-labelledby="activity-title">
      <h2 id="activity-title">Recent Activity</h2>
      {error && <p className="banner banner-error">{error}</p>}
      {jobs === null && !error && <p className="muted">Loading…</p>}
      <RecentStudies />
      {jobs?.length === 0 && (
        <div className="dash-empty">
          <p>No recent simulations</p>
          <p className="muted">Your simulation history will appear here</p>
        </div>
      )}
      {jobs && jobs.length > 0 && (
        <ul className="dash-job-list">
          {jobs.map((job) => (
            <li key={job.id} className="dash-job" data-testid="recent-job">
              <div className="dash-job-main">
                <strong>{jobTitle(job)}</strong>
                <span className={`dash-badge dash-badge-${STATUS_TONE[job.status] ?? 'muted'}`}>
                  {job.status}
                </span>
              </div>
              <div className="dash-job-meta muted">
                <time dateTime={job.finished_at ?? job.queued_at}>
                  {formatDate(job.finished_at ?? job.queued_at, true)}
                </time>
                {job.compute_seconds !== null && (
                  <span>{formatHours(job.compute_seconds / 3600)} compute</span>
                )}
                {job.cost_tokens ? <span>{formatTokens(job.cost_tokens)} tokens</span> : null}
                {job.message && job.status === 'failed' && (
                  <span className="dash-job-message">{job.message}</span>
                )}
              </div>
              {/* Analyses reopen with their results; a meshing job's mesh went back to the page that asked. */}
              <Link
                className="dash-job-link"
                to={
                  job.kind === 'analysis' ? `/environment?job=${encodeURIComponent(job.id)}` : '/environment'
                }
              >
                Open in simulator
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
