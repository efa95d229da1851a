import { AnalysisConfig, AnalysisConfigFields } from '@fieldline/contracts';
import { HttpError } from '../http/errors.ts';

/** One step of a parameter path: an object key or an array index. */
export type PathStep = string | number;

/** `forceLoads[0].force[2]` → ['forceLoads', 0, 'force', 2]. The contract's regex has checked the shape. */
export function parsePath(path: string): PathStep[] {
  const steps: PathStep[] = [];
  for (const m of path.matchAll(/([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g))
    steps.push(m[1] !== undefined ? m[1] : Number(m[2]));
  return steps;
}

export function valueAt(root: unknown, steps: PathStep[]): unknown {
  let at: unknown = root;
  for (const step of steps) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[step];
  }
  return at;
}

/** A copy of `root` with the number at `steps` replaced (the containers on the way are copied, the rest shared). */
export function withValueAt<T>(root: T, steps: PathStep[], value: number): T {
  const [step, ...rest] = steps;
  if (step === undefined) return value as T;
  const container = root as unknown as Record<string | number, unknown>;
  const copy = (Array.isArray(root) ? [...root] : { ...container }) as Record<string | number, unknown>;
  copy[step] = withValueAt(container[step], rest, value);
  return copy as T;
}

const refused = (path: string, value: number | string, why: string) =>
  new HttpError(400, 'invalid_parameter', `Parameter ${path} = ${value}: ${why}`, {
    path,
    value,
  });

/**
 * Checks that `path` names one number of `config` and that the config's schema accepts each value there,
 * naming the path and the value otherwise (before anything is stored). `config` has its defaults applied.
 */
export function checkParameter(config: AnalysisConfig, path: string, values: number[]): void {
  const steps = parsePath(path);
  const parent = valueAt(config, steps.slice(0, -1));
  const last = steps[steps.length - 1];
  const current = valueAt(config, steps);
  const first = values[0] ?? Number.NaN;
  if (parent === null || typeof parent !== 'object' || last === undefined)
    throw refused(path, first, 'the path does not name a number of this config.');
  if (current !== undefined && typeof current !== 'number')
    throw refused(
      path,
      first,
      `the path names ${Array.isArray(current) ? 'a list' : typeof current}, not a number.`,
    );
  // Unknown top-level keys pass through the schema untouched; only the config's own keys can be swept.
  if (steps.length === 1 && !(String(last) in AnalysisConfigFields.shape))
    throw refused(path, first, 'the config has no such setting.');
  for (const value of values) {
    const parsed = AnalysisConfig.safeParse(withValueAt(config, steps, value));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` (${issue.path.join('.')})` : '';
      throw refused(path, value, `${issue?.message ?? 'refused by the config schema'}${where}.`);
    }
    // A key the schema does not know is dropped from its object (or the value changed): not a number it reads.
    if (valueAt(parsed.data, steps) !== value)
      throw refused(path, value, 'the path does not name a number of this config.');
  }
}
