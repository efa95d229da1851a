import { ADAPTIVE_SWEEP_MAX_SOLVES, type AnalysisConfig, type MeshData } from '@fieldline/contracts';

/**
 * A deliberately generous estimate of a job's compute time, checked against the user's balance
 * before the job is queued (the job is then charged for the time it really uses). Work grows with
 * the tetrahedra, the element order (dofs ~ order³), the frequency points of an S-parameter sweep
 * and the time steps of a transient run.
 */
export function estimateSeconds(mesh: MeshData, config: AnalysisConfig, minSeconds: number): number {
  const tets = mesh.tetrahedra?.length ?? 0;
  const order = config.meshOrder ?? 1;
  const points = config.calculateSParameters || config.extractSParameters ? config.sParamNumPoints : 1;
  // the adaptive sweep stops at ADAPTIVE_SWEEP_MAX_SOLVES full solves (its reduced solves cost next to nothing)
  const sweep = config.sParamSweepType === 'adaptive' ? Math.min(points, ADAPTIVE_SWEEP_MAX_SOLVES) : points;
  const steps =
    config.analysisType === 'em-time' || config.transient
      ? Math.min(1e5, Math.ceil(config.endTime / config.timeStep)) / 100
      : 1;
  const work = 30 + 2e-3 * tets * order ** 3 * Math.max(1, sweep) * Math.max(1, steps);
  return Math.max(minSeconds, Math.ceil(work));
}
