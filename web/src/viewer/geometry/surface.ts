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
