import { AIR_PADDING_DEFAULT } from './magnetics.ts';

/**
 * The air the engine meshes around a bare device in a magnetic run (docs/magnetics.md §4,
 * engine em/magnetics/air_region.py), estimated before the run so that the unknowns, the memory and the
 * charge count it: a sphere of radius R(1 + airPadding) about the model, graded from the device's outside
 * triangles to R(1 + airPadding)/6 at the sphere.
 *
 * Whether the engine adds it follows its rule (job.py `needs_air`, eddy_job.py `_add_air`): `airPadding` > 0,
 * or by default when a coil, magnet or magnetic body touches the model's outside; never in an eddy-current
 * run with solid conductors or symmetry planes. The tetrahedra follow a fit to the engine's own air meshes
 * (toroid, box and E-core devices at three mesh sizes and paddings 1, 3 and 8: within 0.85–1.27× of gmsh's
 * count): a fixed part for the sphere's ~1,050 triangles growing with ln(1 + padding), and a part per
 * outside triangle growing with the log of the size ratio the grading spans.
 */
export interface AddedAir {
  tetrahedra: number;
  vertices: number;
  /** the sphere's triangles: the outer boundary of the merged model */
  boundaryFaces: number;
}

interface MeshLike {
  vertices: readonly unknown[];
  tetrahedra?: readonly unknown[] | null;
  region_names?: readonly string[];
  tetrahedron_regions?: readonly number[];
}

type Config = Record<string, unknown>;

const SPHERE_TRIANGLES = 1050; // 4π·36 element areas at h = R(1 + padding)/6
const TETS_PER_VERTEX = 6; // gmsh's graded air: 5–7 tetrahedra per vertex

/** The air the engine will add, or null when it adds none (or the mesh carries no coordinates). */
export function addedAirEstimate(mesh: MeshLike, config: Config): AddedAir | null {
  const padding = airPadding(mesh, config);
  if (padding === null) return null;
  const outside = outsideTriangles(mesh);
  if (!outside || outside.count === 0) return null;
  const surfaceSize = Math.sqrt((4 * (outside.area / outside.count)) / Math.sqrt(3));
  const farSize = (outside.radius * (1 + padding)) / 6;
  const grading = Math.max(0, Math.log(farSize / Math.max(surfaceSize, 1e-300)));
  const n = outside.count;
  const tetrahedra = Math.round(1700 + 2600 * Math.log(1 + padding) + 7.2 * n + 0.21 * n * grading);
  return {
    tetrahedra,
    vertices: Math.round(tetrahedra / TETS_PER_VERTEX),
    boundaryFaces: SPHERE_TRIANGLES,
  };
}

/** The largest distance of a vertex from the centre of the bounding box (air_region.py's R). */
function boundingRadius(xyz: Float64Array): number {
  const nv = xyz.length / 3;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < nv; v++) {
    for (let d = 0; d < 3; d++) {
      const x = at(xyz, 3 * v + d);
      lo[d] = Math.min(at(lo, d), x);
      hi[d] = Math.max(at(hi, d), x);
    }
  }
  const centre = lo.map((l, d) => (l + at(hi, d)) / 2);
  let r2 = 0;
  for (let v = 0; v < nv; v++) {
    let d2 = 0;
    for (let d = 0; d < 3; d++) d2 += (at(xyz, 3 * v + d) - at(centre, d)) ** 2;
    r2 = Math.max(r2, d2);
  }
  return Math.sqrt(r2);
}

/** An entry of an index-checked array (the indices here are in range by construction). */
function at(a: ArrayLike<number>, i: number): number {
  return a[i] ?? 0;
}

function coordinates(mesh: MeshLike): Float64Array {
  const xyz = new Float64Array(3 * mesh.vertices.length);
  mesh.vertices.forEach((v, i) => {
    const p = v as readonly number[];
    xyz[3 * i] = at(p, 0);
    xyz[3 * i + 1] = at(p, 1);
    xyz[3 * i + 2] = at(p, 2);
  });
  return xyz;
}

/** The padding the engine will mesh with, or null when it adds no air. */
function airPadding(mesh: MeshLike, config: Config): number | null {
  const type = config.analysisType;
  const eddy = type === 'eddy-current';
  if (type !== 'magnetostatic' && !eddy) return null;
  const given = typeof config.airPadding === 'number' ? config.airPadding : undefined;
  const listed = (key: string) => Array.isArray(config[key]) && (config[key] as unknown[]).length > 0;
  if (eddy && listed('magneticBoundaries')) return null;
  // With solid conductors air is meshed only when asked (engine solid_conductors.solid_conductor_air: an open
  // conductor's model holds its own air, and the engine refuses a padding then; a bare closed ring needs one).
  if (listed('solidConductors')) return given !== undefined && given > 0 ? given : null;
  if (given !== undefined) return given > 0 ? given : null;
  const active = activeBodies(mesh, config);
  if (active.size === 0) return null;
  const touching = outsideTriangles(mesh)?.regions;
  if (!touching || ![...touching].some((r) => active.has(r))) return null;
  return AIR_PADDING_DEFAULT;
}

function regionIndex(mesh: MeshLike, ref: unknown): number | null {
  if (typeof ref === 'number') return ref;
  if (typeof ref !== 'string') return null;
  if (/^\d+$/.test(ref)) return Number(ref);
  const i = mesh.region_names?.indexOf(ref) ?? -1;
  if (i >= 0) return i;
  const body = /^body(\d+)$/.exec(ref);
  return body ? Number(body[1]) : null;
}

/** Coils, magnets and magnetic bodies (job.py `_active`): the bodies whose field air must carry. */
function activeBodies(mesh: MeshLike, config: Config): Set<number> {
  const out = new Set<number>();
  const add = (ref: unknown) => {
    const i = regionIndex(mesh, ref);
    if (i !== null) out.add(i);
  };
  for (const coil of (config.coils as { region?: unknown }[] | undefined) ?? []) add(coil.region);
  for (const m of (config.bodyMaterials as Record<string, unknown>[] | undefined) ?? []) {
    const mu = m.relativePermeability;
    const magnetic = (typeof mu === 'number' && mu !== 1) || m.bhCurve != null;
    if (magnetic || m.remanence != null || m.remanentFluxDensity) add(m.region);
  }
  return out;
}

interface Outside {
  count: number;
  area: number;
  regions: Set<number>;
  /** the largest distance of a vertex from the bounding box's centre (the engine's model radius R) */
  radius: number;
}

// Per tetrahedra array, with the regions array it was computed for (one mesh, bodies reassigned: recomputed).
const outsideCache = new WeakMap<object, { regions: unknown; outside: Outside }>();

/**
 * The triangles on the model's outside (faces of exactly one tetrahedron), their total area and the bodies
 * they bound. Faces are bucketed by their smallest vertex and matched within the bucket, so the count is
 * exact without a hash of vertex triples.
 */
function outsideTriangles(mesh: MeshLike): Outside | null {
  const tets = mesh.tetrahedra as readonly (readonly number[])[] | null | undefined;
  if (!tets || tets.length === 0 || !Array.isArray(tets[0])) return null;
  const cached = outsideCache.get(tets);
  if (cached !== undefined && cached.regions === mesh.tetrahedron_regions) return cached.outside;
  const xyz = coordinates(mesh);
  const nv = mesh.vertices.length;
  const nf = 4 * tets.length;
  const faceA = new Uint32Array(nf);
  const faceB = new Uint32Array(nf);
  const faceC = new Uint32Array(nf);
  const start = new Uint32Array(nv + 1);
  const local = [
    [0, 1, 2],
    [0, 1, 3],
    [0, 2, 3],
    [1, 2, 3],
  ] as const;
  let k = 0;
  for (const t of tets) {
    for (const [i, j, l] of local) {
      const f = [at(t, i), at(t, j), at(t, l)].sort((x, y) => x - y);
      faceA[k] = at(f, 0);
      faceB[k] = at(f, 1);
      faceC[k] = at(f, 2);
      start[at(f, 0) + 1] = at(start, at(f, 0) + 1) + 1;
      k++;
    }
  }
  for (let v = 0; v < nv; v++) start[v + 1] = at(start, v + 1) + at(start, v);
  const order = new Uint32Array(nf);
  const fill = start.slice(0, nv);
  for (let f = 0; f < nf; f++) {
    const a = at(faceA, f);
    order[at(fill, a)] = f;
    fill[a] = at(fill, a) + 1;
  }
  const regions = mesh.tetrahedron_regions;
  const out: Outside = { count: 0, area: 0, regions: new Set(), radius: boundingRadius(xyz) };
  const key = (f: number) => at(faceB, f) * nv + at(faceC, f);
  for (let v = 0; v < nv; v++) {
    const bucket = Array.from(order.subarray(at(start, v), at(start, v + 1))).sort((x, y) => key(x) - key(y));
    bucket.forEach((f, i) => {
      const before = i > 0 && key(at(bucket, i - 1)) === key(f);
      const after = i + 1 < bucket.length && key(at(bucket, i + 1)) === key(f);
      if (before || after) return;
      out.count++;
      out.area += triangleArea(xyz, at(faceA, f), at(faceB, f), at(faceC, f));
      out.regions.add(at(regions ?? [], Math.floor(f / 4)));
    });
  }
  outsideCache.set(tets, { regions: mesh.tetrahedron_regions, outside: out });
  return out;
}

function triangleArea(xyz: Float64Array, a: number, b: number, c: number): number {
  const u = [0, 1, 2].map((d) => at(xyz, 3 * b + d) - at(xyz, 3 * a + d));
  const w = [0, 1, 2].map((d) => at(xyz, 3 * c + d) - at(xyz, 3 * a + d));
  const [u0, u1, u2] = [at(u, 0), at(u, 1), at(u, 2)];
  const [w0, w1, w2] = [at(w, 0), at(w, 1), at(w, 2)];
  const x = u1 * w2 - u2 * w1;
  const y = u2 * w0 - u0 * w2;
  const z = u0 * w1 - u1 * w0;
  return Math.sqrt(x * x + y * y + z * z) / 2;
}
