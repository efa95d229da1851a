import { isRecord } from '../../../api/http.ts';
import { numberText, type Triple } from '../analysis-form.ts';

export const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const positive = (n: number) => n > 0;
export const nonNegative = (n: number) => n >= 0;

/**
 * Reads a saved backend config one key at a time for the form (config/from-backend-config.ts and each
 * family's fromBackend): a missing key keeps the form default silently (older configs), a present but invalid
 * value keeps the default and is named in `reset`.
 */
export class ConfigReader {
  constructor(
    readonly config: Record<string, unknown>,
    readonly reset: string[],
  ) {}

  number(key: string, valid: (n: number) => boolean): number | undefined {
    const v = this.config[key];
    if (v === undefined) return undefined;
    if (isNumber(v) && valid(v)) return v;
    this.reset.push(key);
    return undefined;
  }

  /** A number key into a text field of `target` (the form keeps what the user types as text). */
  text<T extends object>(key: string, target: T, field: keyof T, valid: (n: number) => boolean): void {
    const v = this.number(key, valid);
    if (v !== undefined) (target as Record<keyof T, unknown>)[field] = numberText(v);
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.config[key];
    if (v === undefined) return fallback;
    if (typeof v === 'boolean') return v;
    this.reset.push(key);
    return fallback;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
    const v = this.config[key];
    if (v === undefined) return fallback;
    if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
    this.reset.push(key);
    return fallback;
  }

  /** A list of rows; an unreadable entry is dropped and named (`wavePorts[2]`), the others kept. */
  rows<R>(key: string, toRow: (entry: Record<string, unknown>, index: number) => R | null): R[] {
    const v = this.config[key];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      this.reset.push(key);
      return [];
    }
    return v.flatMap((entry, i) => {
      const row = isRecord(entry) ? toRow(entry, i) : null;
      if (row === null) this.reset.push(`${key}[${i + 1}]`);
      return row === null ? [] : [row];
    });
  }
}

/** Face ids as the form's comma-separated text; null when not a list of positive integers. */
export function faceText(faces: unknown): string | null {
  if (!Array.isArray(faces) || faces.length === 0) return null;
  if (!faces.every((f) => Number.isInteger(f) && (f as number) > 0)) return null;
  return faces.join(', ');
}

export const numText = (v: unknown, fallback: string): string => (isNumber(v) ? numberText(v) : fallback);

export function tripleText(v: unknown): Triple | null {
  if (!Array.isArray(v) || v.length !== 3 || !v.every(isNumber)) return null;
  return v.map((x) => numberText(x)) as Triple;
}
