import { type AnalysisType, STUDY_MAX_POINTS, STUDY_OUTPUTS } from '@fieldline/contracts';

/** One swept setting as the Study panel holds it. */
export interface SweepRow {
  path: string;
  mode: 'values' | 'range';
  values: string;
  from: number;
  to: number;
  steps: number;
  scale: 'linear' | 'log';
}

/** Keys whose numbers are ids, not settings (face, edge and vertex lists). */
const ID_LISTS = new Set(['faces', 'edges', 'points', 'terminals']);

/** Every number of a backend config, as the path a study names it by (`forceLoads[0].force[2]`). */
export function numericPaths(config: unknown, prefix = ''): { path: string; value: number }[] {
  if (typeof config === 'number' && Number.isFinite(config)) return [{ path: prefix, value: config }];
  if (Array.isArray(config)) return config.flatMap((v, i) => numericPaths(v, `${prefix}[${i}]`));
  if (!config || typeof config !== 'object') return [];
  return Object.entries(config).flatMap(([k, v]) =>
    ID_LISTS.has(k) ? [] : numericPaths(v, prefix ? `${prefix}.${k}` : k),
  );
}

export function rowValues(row: SweepRow): number[] {
  if (row.mode === 'values')
    return row.values
      .split(/[,;\s]+/)
      .filter((s) => s.trim() !== '')
      .map(Number)
      .filter(Number.isFinite);
  const n = Math.max(1, Math.floor(row.steps));
  if (n === 1) return [row.from];
  return Array.from({ length: n }, (_, i) => {
    const t = i / (n - 1);
    return row.scale === 'log' ? row.from * (row.to / row.from) ** t : row.from + (row.to - row.from) * t;
  });
}

export function pointCount(rows: SweepRow[], combine: 'grid' | 'zip'): number {
  if (rows.length === 0) return 0;
  const counts = rows.map((r) => rowValues(r).length);
  return combine === 'zip' ? Math.min(...counts) : counts.reduce((a, b) => a * b, 1);
}

export const tooManyPoints = (n: number) => n > STUDY_MAX_POINTS;

export function toParameter(row: SweepRow) {
  return row.mode === 'values'
    ? { path: row.path, values: rowValues(row) }
    : { path: row.path, from: row.from, to: row.to, steps: row.steps, scale: row.scale };
}

/** The quantities a study can collect for this analysis type (one list per family, in contracts). */
export function outputChoices(analysisType: string): string[] {
  return [...(STUDY_OUTPUTS[analysisType as AnalysisType]?.quantities ?? [])];
}
