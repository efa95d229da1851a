import type { StudySummary } from '@fieldline/contracts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { formatDate } from '../../billing/usage-rules.ts';
import { fetchStudies } from '../../environment/studies/studies-api.ts';

/** The user's design studies under Recent Activity (docs/studies.md), each reopening at /environment?study=… */
export function RecentStudies() {
  const [studies, setStudies] = useState<StudySummary[]>([]);
  useEffect(() => {
    let live = true;
    void fetchStudies()
      .then((list) => {
        if (live) setStudies(list.slice(0, 5));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (studies.length === 0) return null;
  return (
    <ul className="dash-job-list" aria-label="Design studies">
      {studies.map((s) => (
        <li key={s.study_id} className="dash-job" data-testid="recent-study">
          <div className="dash-job-main">
            <strong>Study: {s.name}</strong>
            <span className="dash-badge dash-badge-info">{s.status}</span>
          </div>
          <div className="dash-job-meta muted">
            <time dateTime={s.created_at}>{formatDate(s.created_at, true)}</time>
            <span>
              {s.progress.completed}/{s.progress.total} points
              {s.progress.failed ? `, ${s.progress.failed} failed` : ''}
            </span>
          </div>
          <Link className="dash-job-link" to={`/environment?study=${encodeURIComponent(s.study_id)}`}>
            Open in simulator
          </Link>
        </li>
      ))}
    </ul>
  );
}
