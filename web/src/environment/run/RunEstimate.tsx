import {
  AnalysisConfigFields,
  describeBaseline,
  describeEstimate,
  estimateResources,
} from '@fieldline/contracts';
import { useMemo } from 'react';
import { toBackendConfig } from '../config/to-backend-config.ts';
import { useEnv } from '../state/EnvironmentContext.tsx';

/**
 * "≈ 118 k unknowns, ≈ 1.4 GB · direct solver" beside Run Analysis: the same estimate the server checks
 * against a job's memory limit before it queues the run (contracts/src/resources.ts). Below it, what the
 * memory is made of: about 1 GB is the solver's libraries' address space whatever the model (qa32: a
 * 27-unknown model said ≈ 1.0 GB and read as what the model needs).
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
      summary: `${describeEstimate(estimate)} · ${estimate.solver} solver`,
      baseline: describeBaseline(estimate),
    };
  }, [mesh, form, bodies]);
  if (!text) return null;
  return (
    <div className="run-estimate-box">
      <p
        className="muted run-estimate"
        data-testid="run-estimate"
        title="Estimated before the run from the mesh, the element order and the analysis: the engine's peak address space, what the job's memory limit counts"
      >
        {text.summary}
      </p>
      <p className="muted small run-estimate-baseline" data-testid="run-estimate-baseline">
        {text.baseline}
      </p>
    </div>
  );
}
