import {
  type AnalysisConfig,
  estimateResources,
  MEMORY_MODEL,
  type MeshData,
  type ResourceEstimate,
} from '@fieldline/contracts';
import { HttpError } from '../http/errors.ts';

const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/**
 * Refuses a run whose estimated peak memory is over what one job may use (JOB_MEMORY_LIMIT_MB), before
 * anything is stored or charged: the engine would otherwise be killed by its memory limit halfway
 * through, after minutes of meshing and assembly. The advice names what lowers the need.
 */
export function refuseOverMemory(mesh: MeshData, config: AnalysisConfig, limitMb: number): ResourceEstimate {
  const limitBytes = limitMb * 1024 * 1024;
  const estimate = estimateResources(mesh, config, limitBytes);
  if (estimate.memoryBytes <= limitBytes) return estimate;
  // A limit below the libraries' own footprint is a deployment setting no model can run under: the
  // engine's failure names JOB_MEMORY_LIMIT_MB for the operator, which a refusal of every model would not.
  if (limitBytes < MEMORY_MODEL.baseBytes) return estimate;
  const order = config.meshOrder ?? 1;
  // em-eigen has an iterative path for lossless cavities (LOBPCG) and lossy ones (Arnoldi, GMRES inner solves).
  const iterativeHelps =
    estimate.solver === 'direct' && !['modal', 'harmonic', 'em-time'].includes(config.analysisType);
  const iterativeNames = estimate.space === 'hcurl' ? 'gmres-bddc' : 'cg-amg or cg-bddc';
  const advice = [
    iterativeHelps ? `choose an iterative linear solver (${iterativeNames})` : null,
    order > 1 ? `lower the element order (now ${order})` : null,
    'use a coarser mesh',
  ]
    .filter(Boolean)
    .join(', ');
  throw new HttpError(
    400,
    'memory_estimate_over_limit',
    `This model needs about ${gb(estimate.memoryBytes)} of memory (${estimate.unknowns.toLocaleString('en-US')} ` +
      `unknowns, ${estimate.solver} solver) but a job may use ${gb(limitBytes)}. To fit, ${advice}.`,
    { status: 'error', estimate },
  );
}
