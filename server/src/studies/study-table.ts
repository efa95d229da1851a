import type { StudyResponse, StudyTableResponse } from '@fieldline/contracts';

/** The study as a table: a header row, then one row per point (which points failed, and why). */
export function studyTable(study: StudyResponse): StudyTableResponse {
  const paths = study.parameters.map((p) => p.path);
  const columns = ['point', ...paths, 'status', ...study.outputs, 'error', 'job_id'];
  const rows = study.points.map((p) => [
    p.index,
    ...paths.map((path) => p.parameters[path] ?? null),
    p.status,
    ...study.outputs.map((name) => p.outputs[name] ?? null),
    p.error ??
      (p.output_errors
        ? Object.entries(p.output_errors)
            .map(([k, v]) => `${k}: ${v}`)
            .join('; ')
        : null),
    p.job_id,
  ]);
  return { columns, rows };
}

/** RFC 4180 CSV; numbers at full precision (shortest round-trip form). */
export function tableCsv(table: StudyTableResponse): string {
  const cell = (v: string | number | null) => {
    if (v === null) return '';
    const s = String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return `${[table.columns, ...table.rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}
