import { Readable } from 'node:stream';
import type { StudyPoint, StudyResponse, StudySummary, StudyTableResponse } from '@fieldline/contracts';

type Cell = string | number | null;

/** What decides the table's columns: the swept paths, the outputs, and whether points mesh anew. */
export type TableShape = Pick<StudySummary, 'parameters' | 'outputs' | 'remeshes'>;

/**
 * The header row: the point, each swept path, its status, each output, why it failed, its job; a study whose
 * points mesh anew also says which mesh each ran on (`mesh_hash`).
 */
export function tableColumns(shape: TableShape): string[] {
  return [
    'point',
    ...shape.parameters.map((p) => p.path),
    'status',
    ...shape.outputs,
    'error',
    'job_id',
    ...(shape.remeshes ? ['mesh_hash'] : []),
  ];
}

/** One point's row (which points failed, and why). */
export function tableRow(shape: TableShape, p: StudyPoint): Cell[] {
  return [
    p.index,
    ...shape.parameters.map(({ path }) => p.parameters[path] ?? null),
    p.status,
    ...shape.outputs.map((name) => p.outputs[name] ?? null),
    p.error ??
      (p.output_errors
        ? Object.entries(p.output_errors)
            .map(([k, v]) => `${k}: ${v}`)
            .join('; ')
        : null),
    p.job_id,
    ...(shape.remeshes ? [p.mesh_hash] : []),
  ];
}

/** The study as a table in memory (tests, small callers); the route streams it (`tableStream`). */
export function studyTable(study: StudyResponse): StudyTableResponse {
  return { columns: tableColumns(study), rows: study.points.map((p) => tableRow(study, p)) };
}

const csvCell = (v: Cell) => {
  if (v === null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const csvLine = (row: Cell[]) => `${row.map(csvCell).join(',')}\r\n`;

/** RFC 4180 CSV; numbers at full precision (shortest round-trip form). */
export function tableCsv(table: StudyTableResponse): string {
  return [table.columns, ...table.rows].map(csvLine).join('');
}

/**
 * The table as text, written as its rows arrive (`pages`: the points, a page at a time from the database),
 * so a download never holds the whole table: CSV, or the JSON of StudyTableResponse.
 */
export function tableStream(
  shape: TableShape,
  pages: AsyncIterable<StudyPoint[]>,
  format: 'csv' | 'json',
): Readable {
  const columns = tableColumns(shape);
  async function* text(): AsyncGenerator<string> {
    if (format === 'csv') {
      yield csvLine(columns);
      for await (const page of pages) yield page.map((p) => csvLine(tableRow(shape, p))).join('');
      return;
    }
    yield `{"columns":${JSON.stringify(columns)},"rows":[`;
    let first = true;
    for await (const page of pages) {
      if (page.length === 0) continue;
      yield `${first ? '' : ','}${page.map((p) => JSON.stringify(tableRow(shape, p))).join(',')}`;
      first = false;
    }
    yield ']}';
  }
  return Readable.from(text(), { objectMode: false });
}
