import { isRecord } from '../../api/http.ts';

/** GET /results/tetra_output.json after a meshing failure (spec 001 §3 problem markers payload). */
export interface ProblemMarkersPayload {
  vertices: number[][];
  faces: number[][];
  problemVertices: Array<number | number[]>;
  problemFaces: Array<number | number[]>;
  diagnostics: unknown;
  mesher: string;
  /** the failure message the mesher pipeline wrote with the markers */
  error?: string;
}

export const problemAreasMessage = (mesher = 'TetGen') =>
  `Meshing failed – highlighting problem areas reported by ${mesher}.`;

const numbers = (value: unknown): number[][] =>
  Array.isArray(value) ? value.filter((v): v is number[] => Array.isArray(v)) : [];
const entries = (value: unknown): Array<number | number[]> =>
  Array.isArray(value) ? value.filter((v) => typeof v === 'number' || Array.isArray(v)) : [];

/** The mesher(s) that failed: `mesher`, or the failed `attempts` (the geometry pipeline's record). */
function mesherName(json: Record<string, unknown>): string {
  const diag = json.diagnostics;
  const candidates = [json.mesher, isRecord(diag) ? diag.mesher : undefined];
  for (const c of candidates) if (typeof c === 'string' && c.trim()) return c.trim();
  const attempts = Array.isArray(json.attempts) ? json.attempts.filter(isRecord) : [];
  const failed = [
    ...new Set(
      attempts.filter((a) => a.ok !== true && typeof a.mesher === 'string').map((a) => a.mesher as string),
    ),
  ];
  if (failed.length > 0) return failed.join(' and ');
  return 'TetGen';
}

/** The payload when it carries diagnostics worth showing; otherwise null (the surface stays as it was). */
export function parseProblemMarkers(json: unknown): ProblemMarkersPayload | null {
  if (!isRecord(json)) return null;
  const payload: ProblemMarkersPayload = {
    vertices: numbers(json.vertices),
    faces: numbers(json.faces),
    problemVertices: entries(json.problem_vertices),
    problemFaces: entries(json.problem_faces),
    diagnostics: json.diagnostics,
    mesher: mesherName(json),
    error: typeof json.error === 'string' ? json.error : undefined,
  };
  const hasDiagnostics =
    payload.problemFaces.length > 0 ||
    payload.problemVertices.length > 0 ||
    (Array.isArray(json.diagnostics) ? json.diagnostics.length > 0 : isRecord(json.diagnostics));
  return hasDiagnostics && payload.vertices.length > 0 ? payload : null;
}

/** Human-readable diagnostic lines (strings, or objects with a message). */
export function diagnosticLines(diagnostics: unknown): string[] {
  const list = Array.isArray(diagnostics)
    ? diagnostics
    : isRecord(diagnostics) && Array.isArray(diagnostics.messages)
      ? diagnostics.messages
      : isRecord(diagnostics)
        ? Object.entries(diagnostics)
            .filter(([k]) => k !== 'mesher')
            .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
        : [];
  return list
    .map((d) => (typeof d === 'string' ? d : isRecord(d) && typeof d.message === 'string' ? d.message : ''))
    .filter(Boolean)
    .slice(0, 50);
}
