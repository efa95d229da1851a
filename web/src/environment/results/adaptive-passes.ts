import { isRecord } from '../../api/http.ts';

/** One adaptive pass as results.json's `solver_info.adaptive_passes` lists it (docs/adaptive.md). */
export interface AdaptivePass {
  pass: number;
  unknowns: number;
  elements: number;
  /** estimated relative error (energy norm); null for full-wave, which stops on max |ΔS| */
  estimatedError: number | null;
  /** the followed quantity: a number, or |S_ij| for S-parameters */
  quantity: number | number[] | null;
  /** change of the quantity since the pass before (relative, or max |ΔS|); null on the first */
  change: number | null;
  timeS: number;
}

export interface AdaptiveSummary {
  passes: AdaptivePass[];
  quantity: string | null;
  converged: boolean;
  stoppedBy: string;
  message: string;
  tolerance: number | null;
  /** where the passes solved one frequency (full-wave, harmonic response): that frequency in Hz */
  adaptationFrequency: number | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The passes and how they ended, or null for a run without adaptive refinement. */
export function adaptiveSummary(info: Record<string, unknown> | null): AdaptiveSummary | null {
  const raw = info?.adaptive_passes;
  if (!Array.isArray(raw) || raw.length === 0) return null;
  const passes = raw.filter(isRecord).map(
    (p): AdaptivePass => ({
      pass: num(p.pass) ?? 0,
      unknowns: num(p.unknowns) ?? 0,
      elements: num(p.elements) ?? 0,
      estimatedError: num(p.estimated_error),
      quantity: Array.isArray(p.quantity) ? (p.quantity as number[]) : num(p.quantity),
      change: num(p.change),
      timeS: num(p.time_s) ?? 0,
    }),
  );
  const end = isRecord(info?.adaptive_refinement) ? info.adaptive_refinement : {};
  return {
    passes,
    quantity: typeof end.quantity === 'string' ? end.quantity : null,
    converged: end.converged === true,
    stoppedBy: typeof end.stopped_by === 'string' ? end.stopped_by : '',
    message: typeof end.message === 'string' ? end.message : '',
    tolerance: num(end.tolerance),
    adaptationFrequency: num(info?.adaptation_frequency_Hz),
  };
}

/** The quantity column of a pass: the number, the largest |S| entry of an S-matrix, or the lowest of the
 * requested natural frequencies (modal: `frequencies_Hz`). */
export function quantityValue(q: AdaptivePass['quantity'], name: string | null = null): number | null {
  if (q === null) return null;
  if (!Array.isArray(q)) return q;
  return name === FREQUENCIES ? (q[0] ?? null) : Math.max(...q);
}

const FREQUENCIES = 'frequencies_Hz';

/** The quantity's column and plot title. */
export function quantityLabel(name: string | null): string {
  if (name === 'S') return 'max |S|';
  if (name === FREQUENCIES) return 'f₁ (Hz)';
  return name ?? 'Quantity';
}
