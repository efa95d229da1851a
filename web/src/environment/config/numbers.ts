/** Parsing of the form's typed numbers; a blank or malformed entry is `undefined`, never NaN. */
export function parseNumber(text: string | number | undefined | null): number | undefined {
  if (typeof text === 'number') return Number.isFinite(text) ? text : undefined;
  if (text == null) return undefined;
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

export function parseInteger(text: string | number | undefined | null): number | undefined {
  const value = parseNumber(text);
  return value !== undefined && Number.isInteger(value) ? value : undefined;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A positive number, else the fallback (spec 001 §5 fallbacks: port impedance, S-parameter range). */
export function positiveOr(text: string | number, fallback: number): number {
  const value = parseNumber(text);
  return value !== undefined && value > 0 ? value : fallback;
}

export function numberOr(text: string | number, fallback: number): number {
  return parseNumber(text) ?? fallback;
}
