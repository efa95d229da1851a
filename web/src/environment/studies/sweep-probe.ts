import { numericPaths } from './study-setup.ts';

/**
 * Which config number a form input sets, found without knowing the form: the input's own change is run on a
 * scratch copy of the state (Store.dryRun) with a probe value, both states are mapped to the backend config,
 * and the numbers that differ are the input's. Works for every family's inputs, whatever their units.
 */

/** Values to try in turn: a non-round multiple first, then ±1 (integer settings), then half. */
export function probeValues(current: number | undefined): number[] {
  if (current === undefined || current === 0) return [0.5, 1, -1];
  return [current * 1.37, current + 1, current - 1, current / 2];
}

/** Paths of numbers present in both configs whose values differ. */
export function changedPaths(before: unknown, after: unknown): string[] {
  const old = new Map(numericPaths(before).map((p) => [p.path, p.value]));
  return numericPaths(after)
    .filter((p) => old.has(p.path) && old.get(p.path) !== p.value)
    .map((p) => p.path);
}

export interface ProbeOutcome {
  paths: string[];
}

/**
 * The config paths `probe(text)` changes. `dryRun` runs it without keeping its state; `config` maps a state to
 * the backend config.
 */
export function configPathsOf<S>(
  dryRun: (action: () => void) => S,
  current: S,
  probe: (text: string) => void,
  currentText: string,
  config: (state: S) => unknown,
): ProbeOutcome {
  const before = config(current);
  const value = currentText.trim() === '' ? undefined : Number(currentText);
  for (const candidate of probeValues(Number.isFinite(value) ? value : undefined)) {
    const after = config(dryRun(() => probe(String(candidate))));
    const paths = changedPaths(before, after);
    if (paths.length > 0) return { paths };
  }
  return { paths: [] };
}
