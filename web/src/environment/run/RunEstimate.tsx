import { AnalysisConfigFields, estimateResources } from '@fieldline/contracts';
import { useMemo } from 'react';
import { toBackendConfig } from '../config/to-backend-config.ts';
import { useEnv } from '../state/EnvironmentContext.tsx';
import { estimateNote, estimateSummary } from './estimate-text.ts';

/**
 * "≈ 118 k unknowns, ≈ 400 MB for this model · direct solver" beside Run Analysis: the estimate the server
 * checks against a job's memory limit before it queues the run (contracts/src/resources.ts), leading with what
 * this model needs. Below it, the total the limit counts and the solver's libraries' reserve in it (about
 * 1 GB of address space whatever the model; qa32, and again for a 9 k-unknown model).
 */
export function RunEstimate() {
  const mesh = useEnv((s) => s.model?.mesh);
  const form = useEnv((s) => s.form);
  const bodies = useEnv((s) => s.bodies);
  const text = useMemo(() => {
    if (!mesh || !(mesh.tetrahedra?.length ?? 0)) return null;
    const parsed = AnalysisConfigFields.safeParse(toBackendConfig(form, { bodies }));
    if (!parsed.success) return null;
    const estimate = estimateResources(mesh, parsed.data);
    return {
      summary: estimateSummary(estimate),
      baseline: estimateNote(estimate),
    };
  }, [mesh, form, bodies]);
  if (!text) return null;
  return (
    <div className="run-estimate-box">
      <p
        className="muted run-estimate"
        data-testid="run-estimate"
        title="Estimated before the run from the mesh, the element order and the analysis: the memory this model adds to the solver's baseline"
      >
        {text.summary}
      </p>
      <p className="muted small run-estimate-baseline" data-testid="run-estimate-baseline">
        {text.baseline}
      </p>
    </div>
  );
}
