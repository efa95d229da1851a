import { viewerPayloadFromResultsJson } from '../../results/index.ts';

/** Per-vertex CSV (x, y, z, |E|, Ex, Ey, Ez, |H|, potential) from a results object. */
export function vertexFieldsCsv(result: Record<string, unknown>): string {
  const vertices = Array.isArray(result.vertices) ? (result.vertices as number[][]) : [];
  const f = viewerPayloadFromResultsJson(result).fields ?? {};
  const cols = ['x', 'y', 'z'];
  if (f.eMagnitude) cols.push('E_magnitude_V_per_m');
  if (f.eVectors) cols.push('Ex', 'Ey', 'Ez');
  if (f.hMagnitude) cols.push('H_magnitude_A_per_m');
  if (f.potential) cols.push('potential_V');
  const lines = [cols.join(',')];
  vertices.forEach((v, i) => {
    const row: number[] = [v[0] ?? 0, v[1] ?? 0, v[2] ?? 0];
    if (f.eMagnitude) row.push(f.eMagnitude[i] ?? 0);
    if (f.eVectors) row.push(f.eVectors[3 * i] ?? 0, f.eVectors[3 * i + 1] ?? 0, f.eVectors[3 * i + 2] ?? 0);
    if (f.hMagnitude) row.push(f.hMagnitude[i] ?? 0);
    if (f.potential) row.push(f.potential[i] ?? 0);
    lines.push(row.join(','));
  });
  return `${lines.join('\n')}\n`;
}
