import type { ConvergenceReport, ConvergenceSpec } from '@fieldline/contracts';

/**
 * Roache's safety factors for the grid convergence index: 1.25 when the meshes are shown to be in the
 * asymptotic range (two successive triples give the same observed order within 10 %), else 3.
 */
export const GCI_SAFETY_FACTOR = { asymptotic: 1.25, unproven: 3 } as const;

/** Observed order and extrapolated value from three values on meshes refined by `ratio`; null if not monotone. */
function richardson(f1: number, f2: number, f3: number, ratio: number) {
  const d12 = f1 - f2;
  const d23 = f2 - f3;
  // Monotone convergence: the changes keep their sign and shrink.
  if (d23 === 0 || d12 / d23 <= 1) return null;
  const order = Math.log(d12 / d23) / Math.log(ratio);
  return { order, extrapolated: f3 - d23 / (ratio ** order - 1) };
}

/** The mesh size of a convergence study's point `k` (0 = the coarsest). */
export function convergenceSize(spec: ConvergenceSpec, k: number): number {
  return spec.startSize / spec.ratio ** k;
}

/**
 * Where a convergence study stands after the points that have a value (coarse to fine): converged when the
 * last two differ by less than `tolerance` (relative to the finest). With three points and a constant
 * refinement ratio r, Richardson extrapolation: observed order p = ln((f1 − f2)/(f2 − f3)) / ln r and
 * f_exact ≈ f3 + (f3 − f2)/(r^p − 1); the error estimate of the finest value is Roache's grid convergence
 * index Fs·|f3 − f_exact|, Fs = 1.25 when a fourth point confirms the observed order, else 3. Without
 * monotone convergence the last change stands as the estimate.
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
  const triple = (end: number) =>
    end >= 3
      ? richardson(
          values[end - 3] as number,
          values[end - 2] as number,
          values[end - 1] as number,
          spec.ratio,
        )
      : null;
  const last = triple(n);
  const before = triple(n - 1);
  const extrapolated = last?.extrapolated ?? null;
  const order = last?.order ?? null;
  const asymptotic = last !== null && before !== null && Math.abs(last.order / before.order - 1) <= 0.1;
  const safetyFactor = asymptotic ? GCI_SAFETY_FACTOR.asymptotic : GCI_SAFETY_FACTOR.unproven;
  const errorEstimate =
    extrapolated !== null && value !== null
      ? safetyFactor * Math.abs(value - extrapolated)
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
    safety_factor: extrapolated !== null ? safetyFactor : null,
    last_change: lastChange,
    sizes,
    message,
  };
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${Number((x * 100).toPrecision(3))} %`);
