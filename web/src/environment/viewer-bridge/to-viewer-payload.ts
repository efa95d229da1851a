import type { ViewerAnimation, ViewerFields, ViewerMesh } from '@fieldline/contracts';
import { isRecord } from '../api/http.ts';
import type { ProblemMarkersPayload } from '../meshing/problem-markers.ts';

/**
 * Mesh data and results JSON → the viewer's typed-array payloads (contracts/src/viewer-protocol.ts).
 * Kept in one module so the viewer issue's decoder (binary results format) can replace it.
 */

type Cells = ReadonlyArray<ReadonlyArray<number>>;
interface BodyLike {
  name: string;
  vertices: Cells;
  faces: Cells;
  tetrahedra?: Cells;
}
export interface MeshLike {
  vertices?: Cells;
  faces?: Cells;
  tetrahedra?: Cells;
  tetrahedron_regions?: ReadonlyArray<number>;
  region_names?: ReadonlyArray<string>;
  meshes?: ReadonlyArray<BodyLike>;
  units?: string;
}

function flatten(cells: Cells, width: number): number[] {
  const out: number[] = [];
  for (const c of cells) for (let i = 0; i < width; i++) out.push(c[i] ?? 0);
  return out;
}

/** Polygons are fanned into triangles; triangle i then stays face id i + 1 for triangle meshes. */
function triangulate(faces: Cells, offset = 0): number[] {
  const out: number[] = [];
  for (const f of faces) {
    for (let k = 1; k + 1 < f.length; k++) out.push(f[0]! + offset, f[k]! + offset, f[k + 1]! + offset);
  }
  return out;
}

export function meshToViewerMesh(mesh: MeshLike, visible: ReadonlyArray<boolean> = []): ViewerMesh {
  const units = mesh.units ?? 'm';
  const vertices = mesh.vertices ?? [];
  if (vertices.length === 0 && mesh.meshes?.length) return bodiesToViewerMesh(mesh.meshes, units, visible);
  const tets = mesh.tetrahedra ?? [];
  const names = mesh.region_names ?? [];
  const regionCount = Math.max(names.length, ...(mesh.tetrahedron_regions ?? []).map((r) => r + 1), 0);
  const bodies = Array.from({ length: regionCount }, (_, i) => ({
    name: names[i] ?? `Body ${i + 1}`,
    visible: visible[i] ?? true,
  }));
  return {
    positions: new Float32Array(flatten(vertices, 3)),
    triangles: new Uint32Array(triangulate(mesh.faces ?? [])),
    tetrahedra: tets.length ? new Uint32Array(flatten(tets, 4)) : undefined,
    tetrahedronBodies: mesh.tetrahedron_regions?.length
      ? new Uint32Array(mesh.tetrahedron_regions)
      : undefined,
    bodies,
    units,
  };
}

function bodiesToViewerMesh(bodies: ReadonlyArray<BodyLike>, units: string, visible: ReadonlyArray<boolean>) {
  const positions: number[] = [];
  const triangles: number[] = [];
  const triangleBodies: number[] = [];
  const tetrahedra: number[] = [];
  const tetrahedronBodies: number[] = [];
  bodies.forEach((body, b) => {
    const offset = positions.length / 3;
    positions.push(...flatten(body.vertices, 3));
    const tris = triangulate(body.faces, offset);
    triangles.push(...tris);
    for (let i = 0; i < tris.length / 3; i++) triangleBodies.push(b);
    for (const t of body.tetrahedra ?? []) {
      tetrahedra.push(...t.map((v) => v + offset));
      tetrahedronBodies.push(b);
    }
  });
  return {
    positions: new Float32Array(positions),
    triangles: new Uint32Array(triangles),
    triangleBodies: new Uint32Array(triangleBodies),
    tetrahedra: tetrahedra.length ? new Uint32Array(tetrahedra) : undefined,
    tetrahedronBodies: tetrahedronBodies.length ? new Uint32Array(tetrahedronBodies) : undefined,
    bodies: bodies.map((body, i) => ({ name: body.name, visible: visible[i] ?? true })),
    units,
  };
}

/** Spec 001 §3 field magnitudes ({format: dense|sparse, data, size}) → one value per vertex. */
export function scalarField(field: unknown, count: number): Float32Array<ArrayBuffer> | undefined {
  if (!isRecord(field)) return undefined;
  const out = new Float32Array(count);
  const data = field.data;
  if (Array.isArray(data)) {
    for (let i = 0; i < Math.min(count, data.length); i++) out[i] = Number(data[i]) || 0;
  } else if (isRecord(data)) {
    for (const [k, v] of Object.entries(data)) {
      const i = Number(k);
      if (Number.isInteger(i) && i >= 0 && i < count) out[i] = Number(v) || 0;
    }
  } else return undefined;
  return out;
}

/** efields/hfields ({data: index → [x,y,z]}) → xyz per vertex. */
export function vectorField(field: unknown, count: number): Float32Array<ArrayBuffer> | undefined {
  if (!isRecord(field)) return undefined;
  const data = field.data;
  const out = new Float32Array(count * 3);
  const put = (i: number, v: unknown) => {
    if (!Array.isArray(v) || i < 0 || i >= count) return;
    out[3 * i] = Number(v[0]) || 0;
    out[3 * i + 1] = Number(v[1]) || 0;
    out[3 * i + 2] = Number(v[2]) || 0;
  };
  if (Array.isArray(data)) {
    data.forEach((v, i) => {
      put(i, v);
    });
  } else if (isRecord(data)) for (const [k, v] of Object.entries(data)) put(Number(k), v);
  else return undefined;
  return out;
}

export function fieldsFromResults(result: Record<string, unknown>, count: number): ViewerFields {
  const mags = isRecord(result.field_magnitudes) ? result.field_magnitudes : {};
  return {
    eMagnitude: scalarField(mags.e_magnitudes, count),
    hMagnitude: scalarField(mags.h_magnitudes, count),
    eVectors: vectorField(result.efields, count),
    hVectors: vectorField(result.hfields, count),
    potential: scalarField(result.potential, count),
  };
}

/** animation: {frames, data: one results-like object per frame} (spec 001 §3). */
export function animationFromResults(
  result: Record<string, unknown>,
  count: number,
): ViewerAnimation | undefined {
  const anim = result.animation;
  if (!isRecord(anim) || !Array.isArray(anim.data) || anim.data.length === 0) return undefined;
  const frames = anim.data.filter(isRecord).map((frame) => fieldsFromResults(frame, count));
  if (frames.length === 0) return undefined;
  const values = Array.isArray(anim.times)
    ? anim.times
    : Array.isArray(anim.phases)
      ? anim.phases
      : undefined;
  return {
    frames,
    frameValues: values?.map(Number),
    kind: Array.isArray(anim.phases) || anim.kind === 'phase' ? 'phase' : 'time',
  };
}

export function resultsToViewer(result: Record<string, unknown>, visible: ReadonlyArray<boolean> = []) {
  const mesh = meshToViewerMesh(result as MeshLike, visible);
  const count = mesh.positions.length / 3;
  return { mesh, fields: fieldsFromResults(result, count), animation: animationFromResults(result, count) };
}

/** Problem markers: the payload's own surface with the problem vertices and triangles marked. */
export function problemMarkersToViewer(payload: ProblemMarkersPayload, messages: string[]) {
  const positions = flatten(payload.vertices, 3);
  const triangles = triangulate(payload.faces);
  const markedVertices: number[] = [];
  const markedFaces: number[] = [];
  for (const v of payload.problemVertices) {
    if (typeof v === 'number') markedVertices.push(v);
    else {
      markedVertices.push(positions.length / 3);
      positions.push(v[0] ?? 0, v[1] ?? 0, v[2] ?? 0);
    }
  }
  for (const f of payload.problemFaces) {
    if (typeof f === 'number') markedFaces.push(f);
    else if (f.length >= 3) {
      markedFaces.push(triangles.length / 3);
      triangles.push(f[0]!, f[1]!, f[2]!);
    }
  }
  const mesh: ViewerMesh = {
    positions: new Float32Array(positions),
    triangles: new Uint32Array(triangles),
    bodies: [],
    units: 'm',
  };
  return {
    mesh,
    problemMarkers: {
      vertices: new Uint32Array(markedVertices),
      faces: new Uint32Array(markedFaces),
      messages,
    },
  };
}
