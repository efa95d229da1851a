import type { ConvergenceReport, ConvergenceSpec } from '@fieldline/contracts';

/** The mesh size of a convergence study's point `k` (0 = the coarsest). */
export function convergenceSize(spec: ConvergenceSpec, k: number): number {
  return spec.startSize / spec.ratio ** k;
}

/**
 * Where a convergence study stands after the points that have a value (coarse to fine): converged when the
 * last two differ by less than `tolerance` (relative to the finest). With three points and a constant
 * refinement ratio r, Richardson extrapolation: observed order p = ln((f1 − f2)/(f2 − f3)) / ln r and
 * f_exact ≈ f3 + (f3 − f2)/(r^p − 1); the error estimate of the finest value is |f3 − f_exact| (Roache's
 * grid convergence study). Without monotone convergence the last change stands as the estimate.
 */
export function convergenceReport(
  spec: ConvergenceSpec,
  values: number[],
  sizes: number[],
  done: boolean,
): ConvergenceReport {
  const n = values.length;
  const value = n > 0 ? (values[n - 1] as number) : null;
  const lastChange =
    n >= 2
      ? Math.abs((values[n - 1] as number) - (values[n - 2] as number)) /
        Math.max(Math.abs(value ?? 0), 1e-300)
      : null;
  const converged = lastChange !== null && lastChange < spec.tolerance;
  let extrapolated: number | null = null;
  let order: number | null = null;
  if (n >= 3) {
    const [f1, f2, f3] = values.slice(-3) as [number, number, number];
    const d12 = f1 - f2;
    const d23 = f2 - f3;
    // Monotone convergence: the changes keep their sign and shrink.
    if (d23 !== 0 && d12 / d23 > 1) {
      order = Math.log(d12 / d23) / Math.log(spec.ratio);
      extrapolated = f3 - d23 / (spec.ratio ** order - 1);
    }
  }
  const errorEstimate =
    extrapolated !== null && value !== null
      ? Math.abs(value - extrapolated)
      : lastChange !== null && value !== null
        ? lastChange * Math.abs(value)
        : null;
  const message = converged
    ? `Converged: ${spec.output} changed by ${pct(lastChange)} between the last two meshes (tolerance ${pct(spec.tolerance)}).`
    : done
      ? n < 2
        ? `Not converged: fewer than two points gave ${spec.output}.`
        : `Not converged after ${n} points: the last change was ${pct(lastChange)} (tolerance ${pct(spec.tolerance)}).`
      : `Running: ${n} point${n === 1 ? '' : 's'} so far.`;
  return {
    output: spec.output,
    tolerance: spec.tolerance,
    converged,
    value,
    extrapolated,
    error_estimate: errorEstimate,
    observed_order: order,
    last_change: lastChange,
    sizes,
    message,
  };
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${Number((x * 100).toPrecision(3))} %`);
