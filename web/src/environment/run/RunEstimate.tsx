import { AnalysisConfigFields, describeEstimate, estimateResources } from '@fieldline/contracts';
import { useMemo } from 'react';
import { toBackendConfig } from '../config/to-backend-config.ts';
import { useEnv } from '../state/EnvironmentContext.tsx';

/**
 * "≈ 118 k unknowns, ≈ 1.4 GB · direct solver" beside Run Analysis: the same estimate the server checks
 * against a job's memory limit before it queues the run (contracts/src/resources.ts).
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
    return `${describeEstimate(estimate)} · ${estimate.solver} solver`;
  }, [mesh, form, bodies]);
  if (!text) return null;
  return (
    <p
      className="muted run-estimate"
      data-testid="run-estimate"
      title="Estimated before the run from the mesh, the element order and the analysis"
    >
      {text}
    </p>
  );
}
