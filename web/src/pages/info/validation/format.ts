import type { ValidationRow } from '@fieldline/contracts';

/** A value with its unit, 4 significant digits; engineering values stay readable (2.225e-12 F). */
export function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  const text =
    abs !== 0 && (abs < 1e-3 || abs >= 1e6)
      ? value.toExponential(3)
      : Number(value.toPrecision(6)).toString();
  return unit ? `${text} ${unit}` : text;
}

/** The error as the case measures it: a percentage for relative errors, else with its unit. */
export function formatError(error: number, kind: string): string {
  if (kind === 'relative') {
    const percent = error * 100;
    if (percent !== 0 && percent < 0.001) return `${error.toExponential(1)}`;
    return `${Number(percent.toPrecision(2))} %`;
  }
  if (kind === 'rate' || kind === 'absolute') return Number(error.toPrecision(2)).toString();
  return `${Number(error.toPrecision(2))} ${kind}`;
}

export function formatTolerance(row: Pick<ValidationRow, 'tolerance' | 'error_kind'>): string {
  return formatError(row.tolerance, row.error_kind);
}

export function formatUnknowns(unknowns: number | null): string {
  return unknowns == null ? '—' : unknowns.toLocaleString('en-US');
}
