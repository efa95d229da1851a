import { viewerPayloadFromResultsJson } from '../../results-format/index.ts';
import { fieldColumns } from './field-columns.ts';

/** Per-vertex CSV: x, y, z and every vertex field of the result's catalogue (components, magnitude). */
export function vertexFieldsCsv(result: Record<string, unknown>): string {
  const vertices = Array.isArray(result.vertices) ? (result.vertices as number[][]) : [];
  const fields = viewerPayloadFromResultsJson(result).fields ?? {};
  const columns = Object.entries(fields)
    .filter(([, field]) => field.location === 'vertex')
    .flatMap(([name, field]) => fieldColumns(name, field));
  const lines = [['x', 'y', 'z', ...columns.map((c) => c.name)].join(',')];
  vertices.forEach((v, i) => {
    lines.push([v[0] ?? 0, v[1] ?? 0, v[2] ?? 0, ...columns.map((c) => c.value(i))].join(','));
  });
  return `${lines.join('\n')}\n`;
}
