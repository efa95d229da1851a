import type { ProcessedResults } from '../../../results/process-results.ts';
import { useServices } from '../../../state/EnvironmentContext.tsx';
import { runAnalysis } from '../../../workflows/run-analysis.ts';

/** Time-domain results saved without frames: one click runs the analysis again with 50. */
export function EnableAnimation({ results }: { results: ProcessedResults }) {
  const { deps, jobs, store } = useServices();
  if (!results.timeDomain || results.animationFrames !== 0) return null;
  const enable = () => {
    store.set((s) => ({ form: { ...s.form, animate: true, animationFrames: s.form.animationFrames || 50 } }));
    void runAnalysis(deps, jobs.start('analysis'));
  };
  return (
    <div className="enable-animation">
      <button type="button" onClick={enable} data-testid="enable-animation">
        Enable Animation
      </button>
      <p className="muted small">
        These time-domain results have no frames; this runs the analysis again with 50 frames.
      </p>
    </div>
  );
}
