import { isRecord } from '../../api/http.ts';
import type { ProblemMarkersPayload } from './problem-markers.ts';

/** `slivers` of a meshing job's results (engine geometry/slivers.py): the elements the optimiser left flat. */
export interface MeshSlivers {
  count: number;
  message: string;
  /** 1-based surface-triangle ids touching a sliver */
  surfaceTriangles: number[];
  /** 0-based tetrahedron indices */
  elements: number[];
}

const ints = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v)) : [];

export function parseSlivers(results: unknown): MeshSlivers | undefined {
  const s = isRecord(results) ? results.slivers : undefined;
  if (!isRecord(s) || typeof s.count !== 'number' || s.count <= 0 || typeof s.message !== 'string')
    return undefined;
  return {
    count: s.count,
    message: s.message,
    surfaceTriangles: ints(s.surface_triangles),
    elements: ints(s.elements),
  };
}

/**
 * The slivers as problem markers on the model's surface: the triangles they touch, and the corners of those
 * inside the volume (a vertex marker where no surface triangle shows them).
 */
export function sliverMarkers(
  mesh: { vertices: number[][]; faces: number[][]; tetrahedra?: number[][] },
  slivers: MeshSlivers,
): ProblemMarkersPayload {
  const onSurface = new Set(mesh.faces.flat());
  const inside = new Set<number>();
  for (const e of slivers.elements)
    for (const v of mesh.tetrahedra?.[e] ?? []) if (!onSurface.has(v)) inside.add(v);
  return {
    vertices: mesh.vertices,
    faces: mesh.faces,
    problemFaces: slivers.surfaceTriangles.map((id) => id - 1),
    problemVertices: [...inside],
    diagnostics: [slivers.message],
    mesher: '',
  };
}
