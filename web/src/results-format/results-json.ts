import {
  FRAME_AXES,
  type FrameAxis,
  type ViewerAnimation,
  type ViewerFields,
  type ViewerMesh,
} from '@fieldline/contracts';
import { catalogueFromJson, catalogueFromSpecKeys, flatNumbers } from './field-catalogue.ts';
import { bodyList } from './results-binary.ts';
import type { ViewerPayload } from './viewer-payload.ts';

/**
 * Converts a results JSON object (spec 001 §3: solver_info, vertices, faces, tetrahedra, the named-field
 * catalogue `fields` — or, in older files, the spec's EM keys field_magnitudes, efields/hfields —,
 * animation; or the multi-body form) into the viewer's payload.
 * Used for re-uploaded results files and anywhere the binary twin is not available.
 */

export class ResultsJsonError extends Error {
  override name = 'ResultsJsonError';
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The object that holds the mesh and fields: the file itself, or its `fea_results` / `results`. */
function unwrap(json: unknown): Json {
  if (!isObject(json)) throw new ResultsJsonError('No result data available for visualization');
  for (const key of ['fea_results', 'results']) {
    const inner = json[key];
    if (isObject(inner) && (Array.isArray(inner.vertices) || inner.type === 'multi_body')) return inner;
  }
  return json;
}

export function viewerPayloadFromResultsJson(json: unknown): ViewerPayload {
  const results = unwrap(json);
  if (results.type === 'multi_body') return mergeMultiBody(results);
  return singleBody(results);
}

function singleBody(results: Json): ViewerPayload {
  const positions = flatVec3(results.vertices);
  if (positions.length === 0) throw new ResultsJsonError('No result data available for visualization');
  const nv = positions.length / 3;
  const { triangles, faceIds } = triangulate(results.faces, nv);
  const tetrahedra = flatCells(results.tetrahedra, 4, nv);
  let tetrahedronBodies: Uint32Array | undefined;
  if (tetrahedra && Array.isArray(results.tetrahedron_regions)) {
    const regions = Uint32Array.from(results.tetrahedron_regions as number[], (v) => Number(v) || 0);
    if (regions.length === tetrahedra.length / 4) tetrahedronBodies = regions;
  }
  const names = Array.isArray(results.region_names) ? (results.region_names as unknown[]).map(String) : [];
  const mesh: ViewerMesh = {
    positions,
    triangles,
    ...(faceIds ? { triangleFaceIds: faceIds } : {}),
    ...(tetrahedra ? { tetrahedra } : {}),
    ...(tetrahedronBodies ? { tetrahedronBodies } : {}),
    bodies: bodyList(names, tetrahedronBodies),
    units: lengthUnit(results),
  };
  const nt = tetrahedra ? tetrahedra.length / 4 : 0;
  const fields = fieldsOf(results, nv, nt);
  const animation = animationOf(results.animation, fields, nv, nt);
  return {
    mesh,
    ...(Object.keys(fields).length > 0 ? { fields } : {}),
    ...(animation ? { animation } : {}),
  };
}

function lengthUnit(results: Json): string {
  if (typeof results.length_unit === 'string') return results.length_unit;
  if (typeof results.units === 'string') return results.units;
  return 'm';
}

function fieldsOf(source: Json, nv: number, nt: number): ViewerFields {
  if (isObject(source.fields)) return catalogueFromJson(source.fields, nv, nt);
  return legacyFields(source, nv);
}

/** A file written before the catalogue: its spec EM keys (magnitudes may sit in field_magnitudes). */
function legacyFields(source: Json, nv: number): ViewerFields {
  const magnitudes = isObject(source.field_magnitudes) ? source.field_magnitudes : {};
  return catalogueFromSpecKeys((key, width) =>
    width === 3 ? vectorField(source[key], nv) : scalarField(magnitudes[key] ?? source[key], nv),
  );
}

function animationOf(
  value: unknown,
  fields: ViewerFields,
  nv: number,
  nt: number,
): ViewerAnimation | undefined {
  if (!isObject(value) || !Array.isArray(value.data) || value.data.length === 0) return undefined;
  const frames = (value.data as unknown[]).map((frame) =>
    isObject(frame) ? frameOf(frame, fields, nv, nt) : {},
  );
  const numbers = (v: unknown) => (Array.isArray(v) ? (v as unknown[]).map(Number) : undefined);
  const frameValues = numbers(value.frame_values);
  const frameLabels = Array.isArray(value.frame_labels)
    ? (value.frame_labels as unknown[]).map(String)
    : undefined;
  const axisName = String(value.axis ?? value.kind ?? 'time');
  const axis: FrameAxis = (FRAME_AXES as readonly string[]).includes(axisName)
    ? (axisName as FrameAxis)
    : 'time';
  return {
    frames,
    axis,
    ...(typeof value.unit === 'string' ? { unit: value.unit } : {}),
    ...(frameValues ? { frameValues } : {}),
    ...(frameLabels ? { frameLabels } : {}),
  };
}

/** One frame: catalogue names → values (full, or one magnitude per entry of a vector field), or the
 * spec's EM keys of older files. */
function frameOf(frame: Json, fields: ViewerFields, nv: number, nt: number): Record<string, Float32Array> {
  const out: Record<string, Float32Array> = {};
  let named = false;
  for (const [name, field] of Object.entries(fields)) {
    if (!(name in frame)) continue;
    named = true;
    const count = field.location === 'cell' ? nt : nv;
    const width = field.values.length / Math.max(1, count);
    const values = flatNumbers(frame[name], count, width) ?? flatNumbers(frame[name], count, 1);
    if (values) out[name] = values;
  }
  if (named) return out;
  const legacy = legacyFields(frame, nv);
  for (const [name, field] of Object.entries(legacy)) out[name] = field.values;
  return out;
}

/** {format: dense|sparse, data, size} or a plain list → Float32Array(nv); sparse entries default to 0. */
export function scalarField(value: unknown, nv: number): Float32Array<ArrayBuffer> | undefined {
  if (value === undefined || value === null) return undefined;
  const data = isObject(value) ? value.data : value;
  if (Array.isArray(data)) {
    if (data.length !== nv) return undefined;
    return Float32Array.from(data as number[], (v) => Number(v) || 0);
  }
  if (isObject(data)) {
    const out = new Float32Array(nv);
    for (const [key, v] of Object.entries(data)) {
      const i = Number(key);
      if (Number.isInteger(i) && i >= 0 && i < nv) out[i] = Number(v) || 0;
    }
    return out;
  }
  return undefined;
}

/** {data: index → [x, y, z]} or an n×3 list → Float32Array(3·nv). */
export function vectorField(value: unknown, nv: number): Float32Array<ArrayBuffer> | undefined {
  if (value === undefined || value === null) return undefined;
  const data = isObject(value) ? value.data : value;
  const out = new Float32Array(3 * nv);
  const put = (i: number, v: unknown) => {
    if (!Array.isArray(v) || !Number.isInteger(i) || i < 0 || i >= nv) return;
    out[3 * i] = Number(v[0]) || 0;
    out[3 * i + 1] = Number(v[1]) || 0;
    out[3 * i + 2] = Number(v[2]) || 0;
  };
  if (Array.isArray(data)) {
    if (data.length !== nv) return undefined;
    for (let i = 0; i < data.length; i++) put(i, data[i]);
    return out;
  }
  if (isObject(data)) {
    for (const [key, v] of Object.entries(data)) put(Number(key), v);
    return out;
  }
  return undefined;
}

function flatVec3(value: unknown): Float32Array {
  if (!Array.isArray(value)) return new Float32Array(0);
  const out = new Float32Array(value.length * 3);
  value.forEach((p, i) => {
    if (!Array.isArray(p) || p.length < 3) throw new ResultsJsonError('Invalid mesh data: bad vertex.');
    out[3 * i] = Number(p[0]);
    out[3 * i + 1] = Number(p[1]);
    out[3 * i + 2] = Number(p[2]);
  });
  return out;
}

function flatCells(value: unknown, size: number, nv: number): Uint32Array | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const out = new Uint32Array(value.length * size);
  value.forEach((cell, i) => {
    if (!Array.isArray(cell) || cell.length !== size)
      throw new ResultsJsonError('Invalid mesh data: bad cell.');
    for (let k = 0; k < size; k++) {
      const v = Number(cell[k]);
      if (!(v >= 0 && v < nv))
        throw new ResultsJsonError('Invalid mesh data: a cell refers to a missing vertex.');
      out[i * size + k] = v;
    }
  });
  return out;
}

/**
 * Surface faces → triangles. Polygons are split as fans; then `faceIds` (1-based) maps each triangle
 * back to its face, since "triangle i is face i + 1" no longer holds.
 */
export function triangulate(value: unknown, nv: number): { triangles: Uint32Array; faceIds?: Uint32Array } {
  if (!Array.isArray(value)) return { triangles: new Uint32Array(0) };
  const tris: number[] = [];
  const ids: number[] = [];
  let polygons = false;
  value.forEach((face, f) => {
    if (!Array.isArray(face) || face.length < 3) return;
    if (face.length > 3) polygons = true;
    for (let k = 1; k + 1 < face.length; k++) {
      const a = Number(face[0]);
      const b = Number(face[k]);
      const c = Number(face[k + 1]);
      if (!(a < nv && b < nv && c < nv && a >= 0 && b >= 0 && c >= 0)) {
        throw new ResultsJsonError('Invalid mesh data: a face refers to a missing vertex.');
      }
      tris.push(a, b, c);
      ids.push(f + 1);
    }
  });
  const triangles = Uint32Array.from(tris);
  const skipped = ids.length !== value.length;
  return polygons || skipped ? { triangles, faceIds: Uint32Array.from(ids) } : { triangles };
}

/** Multi-body results: each successful body's mesh, appended with its vertices offset; one body each. */
function mergeMultiBody(results: Json): ViewerPayload {
  const parts = (Array.isArray(results.results) ? results.results : [])
    .filter((r): r is Json => isObject(r) && r.success !== false && isObject(r.result_data))
    .map((r) => ({ name: String(r.mesh_name ?? ''), payload: singleBody(r.result_data as Json) }));
  if (parts.length === 0) throw new ResultsJsonError('No successful results found in multi-body analysis');
  const sum = (f: (p: ViewerPayload) => number) => parts.reduce((n, p) => n + f(p.payload), 0);
  const positions = new Float32Array(sum((p) => p.mesh.positions.length));
  const triangles = new Uint32Array(sum((p) => p.mesh.triangles.length));
  const faceIds = new Uint32Array(triangles.length / 3);
  const triangleBodies = new Uint32Array(triangles.length / 3);
  const tetCount = sum((p) => p.mesh.tetrahedra?.length ?? 0);
  const tetrahedra = tetCount > 0 ? new Uint32Array(tetCount) : undefined;
  const tetrahedronBodies = tetCount > 0 ? new Uint32Array(tetCount / 4) : undefined;
  const nvTotal = positions.length / 3;
  const fields: ViewerFields = {};
  let vOff = 0;
  let tOff = 0;
  let fOff = 0;
  let faceBase = 0;
  let cOff = 0;
  parts.forEach(({ payload }, body) => {
    const { mesh } = payload;
    const nv = mesh.positions.length / 3;
    positions.set(mesh.positions, vOff * 3);
    const nTri = mesh.triangles.length / 3;
    for (let i = 0; i < mesh.triangles.length; i++) triangles[tOff + i] = mesh.triangles[i]! + vOff;
    for (let t = 0; t < nTri; t++) {
      faceIds[fOff + t] = faceBase + (mesh.triangleFaceIds ? mesh.triangleFaceIds[t]! : t + 1);
      triangleBodies[fOff + t] = body;
    }
    faceBase += mesh.triangleFaceIds ? Math.max(0, ...mesh.triangleFaceIds) : nTri;
    if (tetrahedra && tetrahedronBodies && mesh.tetrahedra) {
      for (let i = 0; i < mesh.tetrahedra.length; i++) tetrahedra[cOff + i] = mesh.tetrahedra[i]! + vOff;
      tetrahedronBodies.fill(body, cOff / 4, (cOff + mesh.tetrahedra.length) / 4);
      cOff += mesh.tetrahedra.length;
    }
    // Vertex fields every body carries are joined; a field some body lacks is left out.
    for (const [name, src] of Object.entries(payload.fields ?? {})) {
      if (src.location !== 'vertex' || !parts.every((p) => p.payload.fields?.[name]?.kind === src.kind))
        continue;
      const width = src.values.length / nv;
      if (!fields[name]) {
        const { imag: _phasorPartsAreNotJoined, ...rest } = src;
        fields[name] = { ...rest, values: new Float32Array(nvTotal * width) };
      }
      fields[name].values.set(src.values, vOff * width);
    }
    vOff += nv;
    tOff += mesh.triangles.length;
    fOff += nTri;
  });
  const mesh: ViewerMesh = {
    positions,
    triangles,
    triangleFaceIds: faceIds,
    triangleBodies,
    ...(tetrahedra && cOff === tetCount ? { tetrahedra, tetrahedronBodies } : {}),
    bodies: parts.map((p, i) => ({ name: p.name || `body${i}`, visible: true })),
    units: parts[0]?.payload.mesh.units ?? 'm',
  };
  return { mesh, ...(Object.keys(fields).length > 0 ? { fields } : {}) };
}
