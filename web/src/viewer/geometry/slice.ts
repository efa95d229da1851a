/**
 * The exact cut of a tetrahedral mesh by a plane n·x = offset (marching tetrahedra): each cut tetrahedron
 * gives a triangle or a quad (two triangles). Every cut vertex lies on a mesh edge (a, b) at fraction t,
 * so a field at the cut is f[a]·(1 − t) + f[b]·t — frames change the colours without re-slicing.
 */

export interface SliceResult {
  /** xyz per cut vertex, three vertices per triangle (not indexed) */
  positions: Float32Array;
  /** mesh vertices of the edge each cut vertex lies on, and the fraction along it */
  edgeA: Uint32Array;
  edgeB: Uint32Array;
  weight: Float32Array;
  /** source tetrahedron per triangle */
  triangleTets: Uint32Array;
  /** outline of each cut polygon as pairs of cut-vertex indices: the mesh drawn on the section */
  outline: Uint32Array;
}

export interface SliceOptions {
  /** body per tetrahedron and which bodies to cut (hidden bodies are skipped) */
  tetBodies?: Uint32Array;
  visibleBodies?: readonly boolean[];
  /** only these tetrahedra can meet the plane (from a SlabIndex); all when absent */
  candidates?: Uint32Array;
  /** n·x per vertex for this normal (from a SlabIndex), to skip recomputing it */
  projection?: Float64Array;
}

/** Edge pairs of the quad cut when vertices a, b are above and c, d below: a cycle ac, ad, bd, bc. */
export function sliceTetrahedra(
  positions: Float32Array,
  tets: Uint32Array,
  normal: readonly [number, number, number],
  offset: number,
  options: SliceOptions = {},
): SliceResult {
  const nv = positions.length / 3;
  const [nx, ny, nz] = normal;
  let proj = options.projection;
  if (!proj) {
    proj = new Float64Array(nv);
    for (let i = 0; i < nv; i++) {
      proj[i] = nx * positions[3 * i]! + ny * positions[3 * i + 1]! + nz * positions[3 * i + 2]!;
    }
  }
  const projection = proj;
  const dist = (v: number) => projection[v]! - offset;
  const { tetBodies, visibleBodies, candidates } = options;
  const count = candidates ? candidates.length : tets.length / 4;
  // Pass 1: how many triangles each candidate tetrahedron gives (0, 1 or 2).
  const kind = new Uint8Array(count);
  let triangles = 0;
  for (let c = 0; c < count; c++) {
    const t = candidates ? candidates[c]! : c;
    if (tetBodies && visibleBodies && visibleBodies[tetBodies[t]!] === false) continue;
    const o = 4 * t;
    const d0 = dist(tets[o]!);
    const d1 = dist(tets[o + 1]!);
    const d2 = dist(tets[o + 2]!);
    const d3 = dist(tets[o + 3]!);
    // A vertex on the plane counts as above, so a face lying in the plane is emitted once (by the
    // tetrahedron below it); tetrahedra that only touch the plane at an edge or vertex give nothing.
    const above = (d0 >= 0 ? 1 : 0) + (d1 >= 0 ? 1 : 0) + (d2 >= 0 ? 1 : 0) + (d3 >= 0 ? 1 : 0);
    if (above === 0 || above === 4) continue;
    if (Math.max(d0, d1, d2, d3) === 0) {
      const zeros = (d0 === 0 ? 1 : 0) + (d1 === 0 ? 1 : 0) + (d2 === 0 ? 1 : 0) + (d3 === 0 ? 1 : 0);
      if (zeros < 3) continue;
    }
    kind[c] = above === 2 ? 2 : 1;
    triangles += kind[c]!;
  }
  const out: SliceResult = {
    positions: new Float32Array(triangles * 9),
    edgeA: new Uint32Array(triangles * 3),
    edgeB: new Uint32Array(triangles * 3),
    weight: new Float32Array(triangles * 3),
    triangleTets: new Uint32Array(triangles),
    outline: new Uint32Array(6 * triangles - 4 * countQuads(kind)),
  };
  let e = 0;
  const edge = (a: number, b: number) => {
    out.outline[e++] = a;
    out.outline[e++] = b;
  };
  let v = 0;
  let tri = 0;
  const up = [0, 0, 0, 0];
  const down = [0, 0, 0, 0];
  const emit = (a: number, b: number) => {
    const da = dist(a);
    const db = dist(b);
    const t = da === db ? 0 : da / (da - db);
    out.edgeA[v] = a;
    out.edgeB[v] = b;
    out.weight[v] = t;
    for (let k = 0; k < 3; k++) {
      const pa = positions[3 * a + k]!;
      out.positions[3 * v + k] = pa + t * (positions[3 * b + k]! - pa);
    }
    v++;
  };
  for (let c = 0; c < count; c++) {
    const k = kind[c]!;
    if (k === 0) continue;
    const t = candidates ? candidates[c]! : c;
    let nu = 0;
    let nd = 0;
    for (let j = 0; j < 4; j++) {
      const vert = tets[4 * t + j]!;
      if (dist(vert) >= 0) up[nu++] = vert;
      else down[nd++] = vert;
    }
    if (nu === 1) {
      emit(up[0]!, down[0]!);
      emit(up[0]!, down[1]!);
      emit(up[0]!, down[2]!);
      edge(v - 3, v - 2);
      edge(v - 2, v - 1);
      edge(v - 1, v - 3);
      out.triangleTets[tri++] = t;
    } else if (nu === 3) {
      emit(up[0]!, down[0]!);
      emit(up[1]!, down[0]!);
      emit(up[2]!, down[0]!);
      edge(v - 3, v - 2);
      edge(v - 2, v - 1);
      edge(v - 1, v - 3);
      out.triangleTets[tri++] = t;
    } else {
      const [a, b] = [up[0]!, up[1]!];
      const [c, d] = [down[0]!, down[1]!];
      emit(a, c);
      emit(a, d);
      emit(b, d);
      emit(a, c);
      emit(b, d);
      emit(b, c);
      // The quad's outline ac → ad → bd → bc (its diagonal is not a mesh edge).
      edge(v - 6, v - 5);
      edge(v - 5, v - 4);
      edge(v - 4, v - 1);
      edge(v - 1, v - 6);
      out.triangleTets[tri++] = t;
      out.triangleTets[tri++] = t;
    }
  }
  return out;
}

function countQuads(kind: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < kind.length; i++) if (kind[i] === 2) n++;
  return n;
}

/** Values of a per-vertex field at the cut vertices. */
export function interpolateAtSlice(
  slice: SliceResult,
  field: Float32Array,
  out?: Float32Array,
): Float32Array {
  const n = slice.weight.length;
  const values = out && out.length === n ? out : new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const w = slice.weight[i]!;
    values[i] = field[slice.edgeA[i]!]! * (1 - w) + field[slice.edgeB[i]!]! * w;
  }
  return values;
}

/** Vectors (xyz per vertex) at the cut vertices. */
export function interpolateVectorsAtSlice(slice: SliceResult, vectors: Float32Array): Float32Array {
  const n = slice.weight.length;
  const out = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    const w = slice.weight[i]!;
    const a = 3 * slice.edgeA[i]!;
    const b = 3 * slice.edgeB[i]!;
    for (let k = 0; k < 3; k++) out[3 * i + k] = vectors[a + k]! * (1 - w) + vectors[b + k]! * w;
  }
  return out;
}

/** Total area of the cut triangles. */
export function sliceArea(slice: SliceResult): number {
  const p = slice.positions;
  let area = 0;
  for (let i = 0; i < p.length; i += 9) {
    const ux = p[i + 3]! - p[i]!;
    const uy = p[i + 4]! - p[i + 1]!;
    const uz = p[i + 5]! - p[i + 2]!;
    const vx = p[i + 6]! - p[i]!;
    const vy = p[i + 7]! - p[i + 1]!;
    const vz = p[i + 8]! - p[i + 2]!;
    const cx = uy * vz - uz * vy;
    const cy = uz * vx - ux * vz;
    const cz = ux * vy - uy * vx;
    area += 0.5 * Math.sqrt(cx * cx + cy * cy + cz * cz);
  }
  return area;
}

/** Extent of the mesh along a direction: the section offset slider's range. */
export function extentAlong(
  positions: Float32Array,
  normal: readonly [number, number, number],
): [number, number] {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < positions.length; i += 3) {
    const d = normal[0] * positions[i]! + normal[1] * positions[i + 1]! + normal[2] * positions[i + 2]!;
    if (d < min) min = d;
    if (d > max) max = d;
  }
  return [min, max];
}
