import { BhTable } from '@fieldline/contracts';

/** A pasted B–H table read as the contract reads it: the points, or the first reason it is refused. */
export type BhTableRead = { points: [number, number][] } | { error: string };

/**
 * Reads a pasted table: JSON `[[H, B], …]`, or one "H B" pair a line (commas, tabs or spaces; a header line
 * of words is skipped), as copied from a data sheet or a spreadsheet. Checked with the contract's BhTable, so
 * the form refuses exactly what the server would, naming the offending point.
 */
export function readBhTable(text: string): BhTableRead {
  const trimmed = text.trim();
  if (trimmed === '') return { error: 'paste the curve’s points: [[H (A/m), B (T)], …]' };
  let raw: unknown;
  if (trimmed.startsWith('[')) {
    try {
      raw = JSON.parse(trimmed);
    } catch {
      return { error: 'not a JSON table: write [[H, B], [H, B], …]' };
    }
  } else {
    const rows: number[][] = [];
    for (const [k, line] of trimmed.split(/\r?\n/).entries()) {
      const cells = line
        .trim()
        .split(/[\s,;]+/)
        .filter(Boolean);
      if (cells.length === 0) continue;
      const values = cells.map(Number);
      if (values.some((v) => !Number.isFinite(v))) {
        if (k === 0 && rows.length === 0) continue; // a header line
        return { error: `line ${k + 1} “${line.trim()}”: two numbers expected, H (A/m) and B (T)` };
      }
      if (values.length !== 2) return { error: `line ${k + 1}: two numbers expected, H (A/m) and B (T)` };
      rows.push(values);
    }
    raw = rows;
  }
  const parsed = BhTable.safeParse(raw);
  if (parsed.success) return { points: parsed.data };
  return { error: parsed.error.issues[0]?.message ?? 'not a B–H table' };
}
