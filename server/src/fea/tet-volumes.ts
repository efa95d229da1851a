/**
 * Below this fraction of the model's bounding-box volume a tetrahedron is flat: rounding, not geometry.
 * (The engine refuses exact zeros too, later and after the job was queued and charged for.)
 */
const FLAT_FRACTION = 1e-14;

/** Index of the first tetrahedron with (numerically) zero volume, or -1. Inverted ones are fine: the engine re-orients them. */
export function firstFlatTetrahedron(vertices: number[][], tetrahedra: number[][]): number {
  let lo = [Infinity, Infinity, Infinity];
  let hi = [-Infinity, -Infinity, -Infinity];
  for (const v of vertices) {
    lo = lo.map((x, k) => Math.min(x, v[k] as number));
    hi = hi.map((x, k) => Math.max(x, v[k] as number));
  }
  const extent = Math.max(...hi.map((h, k) => h - (lo[k] as number)));
  const tolerance = FLAT_FRACTION * extent ** 3;
  for (let t = 0; t < tetrahedra.length; t++) {
    const [a, b, c, d] = (tetrahedra[t] as number[]).map((i) => vertices[i] as number[]) as [
      number[],
      number[],
      number[],
      number[],
    ];
    const u = [0, 1, 2].map((k) => (b[k] as number) - (a[k] as number));
    const v = [0, 1, 2].map((k) => (c[k] as number) - (a[k] as number));
    const w = [0, 1, 2].map((k) => (d[k] as number) - (a[k] as number));
    const [u0, u1, u2] = u as [number, number, number];
    const [v0, v1, v2] = v as [number, number, number];
    const [w0, w1, w2] = w as [number, number, number];
    const det = u0 * (v1 * w2 - v2 * w1) - u1 * (v0 * w2 - v2 * w0) + u2 * (v0 * w1 - v1 * w0);
    if (!(Math.abs(det) > tolerance)) return t;
  }
  return -1;
}
