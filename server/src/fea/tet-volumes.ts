/**
 * Below this fraction of the model's bounding-box volume a tetrahedron is flat: rounding, not geometry.
 * (The engine refuses exact zeros too, later and after the job was queued and charged for.)
 */
const FLAT_FRACTION = 1e-14;

/** Index of the first tetrahedron with (numerically) zero volume, or -1. Inverted ones are fine: the engine re-orients them. */
export function firstFlatTetrahedron(vertices: number[][], tetrahedra: number[][]): number {
  // Plain loops, no arrays per vertex or tetrahedron: this runs on the event loop for every submit and
  // study (a 3,000-tetrahedron check took ≈ 10 ms with small arrays per element, bench/studies).
  let lx = Infinity;
  let ly = Infinity;
  let lz = Infinity;
  let hx = -Infinity;
  let hy = -Infinity;
  let hz = -Infinity;
  for (const v of vertices) {
    const x = v[0] as number;
    const y = v[1] as number;
    const z = v[2] as number;
    lx = Math.min(lx, x);
    ly = Math.min(ly, y);
    lz = Math.min(lz, z);
    hx = Math.max(hx, x);
    hy = Math.max(hy, y);
    hz = Math.max(hz, z);
  }
  const extent = Math.max(hx - lx, hy - ly, hz - lz);
  const tolerance = FLAT_FRACTION * extent ** 3;
  for (let t = 0; t < tetrahedra.length; t++) {
    const tet = tetrahedra[t] as number[];
    const a = vertices[tet[0] as number] as number[];
    const b = vertices[tet[1] as number] as number[];
    const c = vertices[tet[2] as number] as number[];
    const d = vertices[tet[3] as number] as number[];
    const a0 = a[0] as number;
    const a1 = a[1] as number;
    const a2 = a[2] as number;
    const u0 = (b[0] as number) - a0;
    const u1 = (b[1] as number) - a1;
    const u2 = (b[2] as number) - a2;
    const v0 = (c[0] as number) - a0;
    const v1 = (c[1] as number) - a1;
    const v2 = (c[2] as number) - a2;
    const w0 = (d[0] as number) - a0;
    const w1 = (d[1] as number) - a1;
    const w2 = (d[2] as number) - a2;
    const det = u0 * (v1 * w2 - v2 * w1) - u1 * (v0 * w2 - v2 * w0) + u2 * (v0 * w1 - v1 * w0);
    if (!(Math.abs(det) > tolerance)) return t;
  }
  return -1;
}
