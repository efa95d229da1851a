import { isRecord } from '../../api/http.ts';

/**
 * One line on how a full-wave run swept its S-parameters (solver_info.frequency_sweep, docs/fullwave.md):
 * the adaptive sweep's full solves against the points and its final error estimate; null for a
 * uniform sweep that nobody asked to be adaptive (nothing to say beyond the point count).
 */
export function sweepSummary(info: Record<string, unknown>): string | null {
  const sweep = info.frequency_sweep;
  if (!isRecord(sweep)) return null;
  const points = typeof info.frequency_points === 'number' ? info.frequency_points : null;
  const solves = typeof sweep.full_solves === 'number' ? sweep.full_solves : null;
  if (sweep.type === 'adaptive') {
    const parts = [`adaptive, ${solves ?? '?'} full solves`];
    if (points !== null) parts[0] += ` for ${points} points`;
    if (typeof sweep.error_estimate === 'number')
      parts.push(`error estimate ${sweep.error_estimate.toExponential(1)}`);
    if (sweep.converged === false) parts.push('not converged');
    return parts.join(', ');
  }
  if (sweep.requested === 'adaptive') return `uniform (adaptive not possible), ${solves ?? '?'} full solves`;
  return null;
}

/**
 * One line on an iterative full-wave run's Krylov solves (solver_info.iterative_solves, one per frequency
 * and port): "6 solves, 35–41 iterations each, residual ≤ 4.5e-6"; null for a direct solve.
 */
export function iterativeSummary(info: Record<string, unknown>): string | null {
  const solves = Array.isArray(info.iterative_solves) ? info.iterative_solves.filter(isRecord) : [];
  const iterations = solves.map((s) => s.iterations).filter((n): n is number => typeof n === 'number');
  if (iterations.length === 0) return null;
  const lo = Math.min(...iterations);
  const hi = Math.max(...iterations);
  const parts = [`${iterations.length} ${iterations.length === 1 ? 'solve' : 'solves'}`];
  parts.push(`${lo === hi ? lo : `${lo}–${hi}`} iterations${iterations.length === 1 ? '' : ' each'}`);
  const residuals = solves.map((s) => s.residual).filter((r): r is number => typeof r === 'number');
  if (residuals.length) parts.push(`residual ≤ ${Math.max(...residuals).toExponential(1)}`);
  return parts.join(', ');
}
