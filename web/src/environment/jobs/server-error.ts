/** Spec 001 §8 server error rewrite. */
export const INVALID_SURFACE_MESSAGE =
  'TetGen failed because the surface mesh is invalid. The mesh contains self-intersections, overlapping triangles, or non-manifold edges. Please clean the mesh and ensure it is watertight before running the analysis.';

/** The friendlier notice the analysis error box adds for self-intersecting surfaces. */
export const SELF_INTERSECTION_NOTICE =
  'Your surface mesh seems to intersect itself. Repair it in your CAD or mesh tool so that it is a watertight, clean surface (no self-intersections, overlapping triangles or non-manifold edges), then upload it again.';

const INVALID_SURFACE_PATTERNS = [
  'self-intersections',
  'tetgen failed',
  'non-manifold',
  'surface mesh',
  'intersect',
  'zero volume',
];

export function isInvalidSurfaceMessage(message: string | undefined | null): boolean {
  if (!message) return false;
  const lower = message.toLowerCase();
  return INVALID_SURFACE_PATTERNS.some((p) => lower.includes(p));
}

/** The server's message, rewritten for invalid surfaces, or `Unknown server error (HTTP {status})`. */
export function rewriteServerError(message: string | undefined | null, httpStatus?: number): string {
  if (isInvalidSurfaceMessage(message)) return INVALID_SURFACE_MESSAGE;
  if (message?.trim()) return message;
  return `Unknown server error (HTTP ${httpStatus ?? 0})`;
}
