import { CONVERGENCE_MAX_POINTS, type ConvergenceSpec } from '@fieldline/contracts';

/** A mesh-convergence study as the Study card holds it (docs/studies.md "Mesh-convergence studies"). */
export interface ConvergenceForm {
  output: string;
  /** relative change between two successive meshes, in percent as typed */
  tolerancePercent: number;
  /** first mesh's maximum element size, model units */
  startSize: number;
  ratio: number;
  maxPoints: number;
}

/**
 * The card's first guess: the configured mesh size if there is one, else the mesher's automatic size
 * (bounding-box diagonal / 20) × 2, so the first mesh is coarse and the study refines from there.
 */
export function defaultConvergence(
  output: string,
  meshMaxSize: unknown,
  size: readonly number[] | null,
): ConvergenceForm {
  const diagonal = size ? Math.hypot(...size) : 0;
  const start =
    typeof meshMaxSize === 'number' && meshMaxSize > 0 ? meshMaxSize : diagonal > 0 ? diagonal / 10 : 1;
  return { output, tolerancePercent: 1, startSize: Number(start.toPrecision(3)), ratio: 1.5, maxPoints: 5 };
}

export function toConvergenceSpec(form: ConvergenceForm): ConvergenceSpec {
  return {
    output: form.output,
    tolerance: form.tolerancePercent / 100,
    startSize: form.startSize,
    ratio: form.ratio,
    maxPoints: Math.min(CONVERGENCE_MAX_POINTS, Math.max(2, Math.floor(form.maxPoints))),
  };
}

/** The element sizes the study will try at most: startSize / ratio^k. */
export function convergenceSizes(form: ConvergenceForm): number[] {
  const n = toConvergenceSpec(form).maxPoints;
  return Array.from({ length: n }, (_, k) => form.startSize / form.ratio ** k);
}
