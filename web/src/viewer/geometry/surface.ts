import { sort3, TripleTable } from './face-table.ts';

/** Unique edges of a triangle list as vertex pairs (for the wireframe). */
export function triangleEdges(triangles: Uint32Array): Uint32Array {
  const table = new TripleTable(triangles.length);
  const pairs: number[] = [];
  for (let i = 0; i < triangles.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const u = triangles[i + k]!;
      const v = triangles[i + ((k + 1) % 3)]!;
      const lo = Math.min(u, v);
      const hi = Math.max(u, v);
      if (table.slot(lo, hi, 0, 0) < 0) pairs.push(lo, hi);
    }
  }
  return Uint32Array.from(pairs);
}

/** Vertices used by a triangle list. */
export function usedVertices(triangles: Uint32Array, nv: number): Uint32Array {
  const used = new Uint8Array(nv);
  for (let i = 0; i < triangles.length; i++) used[triangles[i]!] = 1;
  let n = 0;
  for (let i = 0; i < nv; i++) n += used[i]!;
  const out = new Uint32Array(n);
  let j = 0;
  for (let i = 0; i < nv; i++) if (used[i]) out[j++] = i;
  return out;
}

const LOCAL_FACES = [
  [1, 2, 3],
  [0, 2, 3],
  [0, 1, 3],
  [0, 1, 2],
] as const;

export interface BodySurfaces {
  /** three vertex indices per display triangle, grouped by body (body 0's first) */
  triangles: Uint32Array;
  /** body per display triangle */
  bodies: Uint32Array;
  /** 1-based face id per display triangle (0 where the triangle is not one of the model's faces) */
  faceIds: Uint32Array;
  /** [start, count] in triangles per body */
  groups: [number, number][];
}

/**
 * The closed surface of every body of a multi-body volume mesh: faces with no neighbour or a neighbour
 * in another body. Interfaces appear once per body, so hiding one body reveals the next one's surface.
 */
export function bodySurfaces(
  tets: Uint32Array,
  tetBodies: Uint32Array,
  modelTriangles: Uint32Array,
  modelFaceIds: Uint32Array | undefined,
  bodyCount: number,
): BodySurfaces {
  if (modelTriangles.length > 0) {
    return bodySurfacesFromModel(tets, tetBodies, modelTriangles, modelFaceIds, bodyCount);
  }
  return bodySurfacesFromTets(tets, tetBodies, modelTriangles, modelFaceIds, bodyCount);
}

/** Every face of every tetrahedron hashed: exact for any input, but heavy on a million tetrahedra. */
export function bodySurfacesFromTets(
  tets: Uint32Array,
  tetBodies: Uint32Array,
  modelTriangles: Uint32Array,
  modelFaceIds: Uint32Array | undefined,
  bodyCount: number,
): BodySurfaces {
  const nt = tets.length / 4;
  const table = new TripleTable(4 * nt);
  const partner = new Int32Array(4 * nt).fill(-1);
  const s = [0, 0, 0];
  for (let t = 0; t < nt; t++) {
    for (let j = 0; j < 4; j++) {
      const f = LOCAL_FACES[j]!;
      sort3(tets[4 * t + f[0]]!, tets[4 * t + f[1]]!, tets[4 * t + f[2]]!, s);
      const slot = table.slot(s[0]!, s[1]!, s[2]!, 4 * t + j);
      if (slot >= 0) {
        const other = table.value[slot]!;
        partner[other] = 4 * t + j;
        partner[4 * t + j] = other;
      }
    }
  }
  const faceTable = new TripleTable(modelTriangles.length / 3);
  for (let i = 0; i < modelTriangles.length; i += 3) {
    sort3(modelTriangles[i]!, modelTriangles[i + 1]!, modelTriangles[i + 2]!, s);
    faceTable.slot(s[0]!, s[1]!, s[2]!, modelFaceIds ? modelFaceIds[i / 3]! : i / 3 + 1);
  }
  const perBody: number[][] = Array.from({ length: bodyCount }, () => []);
  for (let g = 0; g < 4 * nt; g++) {
    const t = g >> 2;
    const body = tetBodies[t]!;
    const p = partner[g]!;
    if (p >= 0 && tetBodies[p >> 2] === body) continue;
    let list = perBody[body];
    if (!list) {
      list = [];
      perBody[body] = list;
    }
    list.push(g);
  }
  const total = perBody.reduce((n, list) => n + list.length, 0);
  const triangles = new Uint32Array(3 * total);
  const bodies = new Uint32Array(total);
  const faceIds = new Uint32Array(total);
  const groups: [number, number][] = [];
  let k = 0;
  perBody.forEach((list, body) => {
    groups.push([k, list.length]);
    for (const g of list) {
      const t = g >> 2;
      const f = LOCAL_FACES[g & 3]!;
      const a = tets[4 * t + f[0]]!;
      const b = tets[4 * t + f[1]]!;
      const c = tets[4 * t + f[2]]!;
      triangles[3 * k] = a;
      triangles[3 * k + 1] = b;
      triangles[3 * k + 2] = c;
      bodies[k] = body;
      sort3(a, b, c, s);
      const slot = faceTable.find(s[0]!, s[1]!, s[2]!);
      faceIds[k] = slot >= 0 ? faceTable.value[slot]! : 0;
      k++;
    }
  });
  return { triangles, bodies, faceIds, groups };
}

/** Boundary triangles of a single-body volume mesh (for models that arrive without surface faces). */
export function boundaryTriangles(tets: Uint32Array): Uint32Array {
  const single = bodySurfaces(tets, new Uint32Array(tets.length / 4), new Uint32Array(0), undefined, 1);
  return single.triangles;
}

/**
 * The same surfaces from the model's boundary faces plus the interfaces, hashing only faces whose three
 * vertices touch more than one body (a thin layer along the interfaces), so a million-tetrahedron
 * model costs a few passes over arrays. Model faces with a vertex inside one body belong to that body.
 */
export function bodySurfacesFromModel(
  tets: Uint32Array,
  tetBodies: Uint32Array,
  modelTriangles: Uint32Array,
  modelFaceIds: Uint32Array | undefined,
  bodyCount: number,
): BodySurfaces {
  const nt = tets.length / 4;
  let nv = 0;
  for (let i = 0; i < tets.length; i++) if (tets[i]! + 1 > nv) nv = tets[i]! + 1;
  for (let i = 0; i < modelTriangles.length; i++)
    if (modelTriangles[i]! + 1 > nv) nv = modelTriangles[i]! + 1;
  // The body of each vertex, or MIXED where tetrahedra of several bodies meet.
  const MIXED = -2;
  const vertexBody = new Int32Array(nv).fill(-1);
  for (let t = 0; t < nt; t++) {
    const b = tetBodies[t]!;
    for (let j = 0; j < 4; j++) {
      const v = tets[4 * t + j]!;
      const cur = vertexBody[v]!;
      if (cur === -1) vertexBody[v] = b;
      else if (cur !== b) vertexBody[v] = MIXED;
    }
  }
  const mixed = (v: number) => vertexBody[v] === MIXED;
  const s = [0, 0, 0];
  const faceTable = new TripleTable(modelTriangles.length / 3);
  for (let i = 0; i < modelTriangles.length; i += 3) {
    sort3(modelTriangles[i]!, modelTriangles[i + 1]!, modelTriangles[i + 2]!, s);
    faceTable.slot(s[0]!, s[1]!, s[2]!, modelFaceIds ? modelFaceIds[i / 3]! : i / 3 + 1);
  }
  const perBody: number[][] = Array.from({ length: bodyCount }, () => []);
  const push = (body: number, a: number, b: number, c: number, id: number) => {
    let list = perBody[body];
    if (!list) {
      list = [];
      perBody[body] = list;
    }
    list.push(a, b, c, id);
  };
  // Model faces away from the interfaces: the body of a vertex that is inside one body.
  for (let i = 0; i < modelTriangles.length; i += 3) {
    const a = modelTriangles[i]!;
    const b = modelTriangles[i + 1]!;
    const c = modelTriangles[i + 2]!;
    const inner = !mixed(a) ? a : !mixed(b) ? b : !mixed(c) ? c : -1;
    if (inner < 0) continue;
    const body = vertexBody[inner]!;
    if (body < 0) continue; // a face of no tetrahedron
    push(body, a, b, c, modelFaceIds ? modelFaceIds[i / 3]! : i / 3 + 1);
  }
  // Faces with every vertex on an interface: hash them to find interfaces and the boundary there.
  let candidates = 0;
  for (let t = 0; t < nt; t++) {
    for (let j = 0; j < 4; j++) {
      const f = LOCAL_FACES[j]!;
      if (mixed(tets[4 * t + f[0]]!) && mixed(tets[4 * t + f[1]]!) && mixed(tets[4 * t + f[2]]!))
        candidates++;
    }
  }
  const table = new TripleTable(candidates);
  const owner: number[] = [];
  const second: number[] = [];
  for (let t = 0; t < nt; t++) {
    for (let j = 0; j < 4; j++) {
      const f = LOCAL_FACES[j]!;
      const a = tets[4 * t + f[0]]!;
      const b = tets[4 * t + f[1]]!;
      const c = tets[4 * t + f[2]]!;
      if (!(mixed(a) && mixed(b) && mixed(c))) continue;
      sort3(a, b, c, s);
      const slot = table.slot(s[0]!, s[1]!, s[2]!, owner.length);
      if (slot < 0) {
        owner.push(4 * t + j);
        second.push(-1);
      } else {
        second[table.value[slot]!] = 4 * t + j;
      }
    }
  }
  const emit = (g: number) => {
    const t = g >> 2;
    const f = LOCAL_FACES[g & 3]!;
    const a = tets[4 * t + f[0]]!;
    const b = tets[4 * t + f[1]]!;
    const c = tets[4 * t + f[2]]!;
    sort3(a, b, c, s);
    const slot = faceTable.find(s[0]!, s[1]!, s[2]!);
    push(tetBodies[t]!, a, b, c, slot >= 0 ? faceTable.value[slot]! : 0);
  };
  for (let k = 0; k < owner.length; k++) {
    const g = owner[k]!;
    const h = second[k]!;
    if (h < 0)
      emit(g); // the outer boundary, where an interface meets it
    else if (tetBodies[g >> 2] !== tetBodies[h >> 2]) {
      emit(g);
      emit(h);
    }
  }
  const total = perBody.reduce((n, list) => n + list.length / 4, 0);
  const triangles = new Uint32Array(3 * total);
  const bodies = new Uint32Array(total);
  const faceIds = new Uint32Array(total);
  const groups: [number, number][] = [];
  let k = 0;
  perBody.forEach((list, body) => {
    groups.push([k, list.length / 4]);
    for (let i = 0; i < list.length; i += 4) {
      triangles[3 * k] = list[i]!;
      triangles[3 * k + 1] = list[i + 1]!;
      triangles[3 * k + 2] = list[i + 2]!;
      bodies[k] = body;
      faceIds[k] = list[i + 3]!;
      k++;
    }
  });
  return { triangles, bodies, faceIds, groups };
}
