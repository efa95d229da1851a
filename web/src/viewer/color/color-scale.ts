/** Value → [0, 1] normalisation for the colour maps (linear or log), auto ranges and legend ticks. */

export interface ColorRange {
  min: number;
  max: number;
  log: boolean;
}

/** The smallest range the legend and shader accept: a flat field still gets a non-zero span. */
export function safeRange(min: number, max: number, log: boolean): ColorRange {
  let lo = min;
  let hi = max;
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
    lo = 0;
    hi = 1;
  }
  if (log) {
    if (!(hi > 0)) hi = 1;
    if (!(lo > 0) || lo >= hi) lo = hi / 1e6;
  } else if (lo === 0 && hi === 0) {
    // a field that is zero everywhere: 0…1, not −1…1 (a magnitude is never negative, qa31)
    hi = 1;
  } else if (hi <= lo) {
    const pad = Math.abs(hi) > 0 ? Math.abs(hi) * 0.01 : 1;
    lo -= pad;
    hi += pad;
  }
  return { min: lo, max: hi, log };
}

/** Where `value` falls in the range: 0 at min, 1 at max, clamped. Mirrors the GPU shader. */
export function normalize(value: number, range: ColorRange): number {
  let t: number;
  if (range.log) {
    const v = Math.max(value, range.min);
    t = Math.log(v / range.min) / Math.log(range.max / range.min);
  } else {
    t = (value - range.min) / (range.max - range.min);
  }
  return Number.isFinite(t) ? Math.min(1, Math.max(0, t)) : 0;
}

/** min, max and smallest positive value over one or more arrays (NaNs ignored). */
export function dataRange(arrays: readonly Float32Array[]): {
  min: number;
  max: number;
  minPositive: number;
} {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let minPositive = Number.POSITIVE_INFINITY;
  for (const a of arrays) {
    for (let i = 0; i < a.length; i++) {
      const v = a[i]!;
      if (v < min) min = v;
      if (v > max) max = v;
      if (v > 0 && v < minPositive) minPositive = v;
    }
  }
  return { min, max, minPositive };
}

/** "Nice" tick values (1, 2, 2.5, 5 × 10^k steps) inside [min, max]; decades for log ranges. */
export function ticks(range: ColorRange, target = 5): number[] {
  if (range.log) {
    const lo = Math.ceil(Math.log10(range.min) - 1e-9);
    const hi = Math.floor(Math.log10(range.max) + 1e-9);
    if (hi - lo + 1 >= 3) {
      const step = Math.max(1, Math.ceil((hi - lo + 1) / (target + 1)));
      const out: number[] = [];
      for (let e = lo; e <= hi; e += step) out.push(10 ** e);
      return out;
    }
    // Less than three decades: 1-2-5 steps, or plain nice ticks for a range inside one decade.
    const out: number[] = [];
    for (let e = lo - 1; e <= hi; e++) {
      for (const m of [1, 2, 5]) {
        const v = m * 10 ** e;
        if (v >= range.min * (1 - 1e-9) && v <= range.max * (1 + 1e-9)) out.push(v);
      }
    }
    return out.length >= 3 ? out : ticks({ ...range, log: false }, target);
  }
  const span = range.max - range.min;
  const raw = span / Math.max(1, target);
  const mag = 10 ** Math.floor(Math.log10(raw));
  // The candidate step whose tick count comes closest to the target.
  let step = mag;
  for (const m of [1, 2, 2.5, 5, 10]) {
    if (Math.abs(span / (m * mag) - target) < Math.abs(span / step - target)) step = m * mag;
  }
  const out: number[] = [];
  for (let v = Math.ceil(range.min / step - 1e-9) * step; v <= range.max + step * 1e-9; v += step) {
    out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  }
  return out;
}

const PREFIXES: [number, string][] = [
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
  [1, ''],
  [1e-3, 'm'],
  [1e-6, 'µ'],
  [1e-9, 'n'],
  [1e-12, 'p'],
];

/** One SI prefix for a whole legend (from its largest magnitude), so ticks read 0, 0.5, 1.0 kV/m. */
export function siPrefix(maxAbs: number): { factor: number; prefix: string } {
  if (!(maxAbs > 0) || !Number.isFinite(maxAbs)) return { factor: 1, prefix: '' };
  for (const [factor, prefix] of PREFIXES) if (maxAbs >= factor) return { factor, prefix };
  return { factor: 1e-12, prefix: 'p' };
}

/** A tick label: up to 3 significant digits without trailing zeros. */
export function formatTick(value: number, factor: number): string {
  const v = value / factor;
  if (v === 0) return '0';
  const abs = Math.abs(v);
  if (abs >= 1e4 || abs < 1e-3) return v.toExponential(1);
  return Number(v.toPrecision(3)).toString();
}
