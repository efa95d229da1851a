import { ExportButtons } from '../export/ExportButtons.tsx';
import { familyAvailable } from '../families/registry.ts';
import { Progress } from '../meshing/SurfaceMeshCard.tsx';
import { useEnv, useServices } from '../state/EnvironmentContext.tsx';
import { ErrorBox, Notice } from '../ui/Messages.tsx';
import { cancelAnalysis, runAnalysis } from '../workflows/run-analysis.ts';
import { RunEstimate } from './RunEstimate.tsx';

/** Run Analysis / Cancel, the run's progress and its errors. */
export function RunBar() {
  const { deps, jobs } = useServices();
  const analysis = useEnv((s) => s.analysis);
  const busy = analysis.status === 'submitting' || analysis.status === 'running';
  const physics = useEnv((s) => s.form.physics);
  const runnable = familyAvailable(physics);
  return (
    <div className="run-bar" data-testid="run-bar">
      <div className="actions">
        <button
          type="button"
          className="primary run"
          disabled={busy || !runnable}
          title={runnable ? undefined : 'This physics cannot run yet: its solver is coming.'}
          data-testid="run-analysis"
          onClick={() => void runAnalysis(deps, jobs.start('analysis'))}
        >
          {busy ? 'Running…' : 'Run Analysis'}
        </button>
        {busy && (
          <button
            type="button"
            data-testid="cancel-analysis"
            onClick={() => void cancelAnalysis(deps, () => jobs.stop('analysis'))}
          >
            Cancel
          </button>
        )}
      </div>
      {!busy && <ExportButtons />}
      {!busy && <RunEstimate />}
      <RunStatus />
    </div>
  );
}

/** The analysis job's progress, error and notice. Also shown without a model on screen: a job opened from
 * the address or Recent Activity that is still running, failed or was cancelled has no mesh to show. */
export function RunStatus() {
  const analysis = useEnv((s) => s.analysis);
  return (
    <>
      {analysis.status === 'running' && <Progress value={analysis.progress} label={analysis.message} />}
      {analysis.error && <ErrorBox error={analysis.error} testId="analysis-error" />}
      {analysis.notice && <Notice testId="analysis-notice">{analysis.notice}</Notice>}
    </>
  );
}
