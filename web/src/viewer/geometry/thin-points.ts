import { TripleTable } from './face-table.ts';

/**
 * Picks about `count` of the candidate points spread evenly over space (one per voxel of a grid whose
 * cell size is tuned to the count), so arrows and seeds do not clump where the mesh is fine.
 */
export function thinPoints(
  positions: Float32Array,
  candidates: Uint32Array | null,
  count: number,
  dimension: 2 | 3,
): Uint32Array {
  const n = candidates ? candidates.length : positions.length / 3;
  const at = (i: number) => (candidates ? candidates[i]! : i);
  if (count >= n) return candidates ? candidates.slice() : Uint32Array.from({ length: n }, (_, i) => i);
  if (count <= 0 || n === 0) return new Uint32Array(0);
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    const p = 3 * at(i);
    for (let k = 0; k < 3; k++) {
      const v = positions[p + k]!;
      if (v < lo[k]!) lo[k] = v;
      if (v > hi[k]!) hi[k] = v;
    }
  }
  const diag = Math.hypot(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!) || 1;
  let h = diag / count ** (1 / dimension);
  let best: Uint32Array = new Uint32Array(0);
  for (let iter = 0; iter < 6; iter++) {
    const cells = new TripleTable(n);
    const picked: number[] = [];
    for (let i = 0; i < n; i++) {
      const p = 3 * at(i);
      const ix = Math.floor((positions[p]! - lo[0]!) / h);
      const iy = Math.floor((positions[p + 1]! - lo[1]!) / h);
      const iz = Math.floor((positions[p + 2]! - lo[2]!) / h);
      if (cells.slot(ix, iy, iz, at(i)) < 0) picked.push(at(i));
    }
    best = Uint32Array.from(picked);
    const ratio = picked.length / count;
    if (ratio > 0.85 && ratio < 1.2) break;
    h *= Math.min(4, Math.max(0.25, ratio ** (1 / dimension)));
  }
  return best;
}

/** About `count` vertices of a cut (non-indexed triangles) spread over it: one per cell of size √(area/count). */
export function thinSlicePoints(p: Float32Array, count: number): Uint32Array {
  const n = p.length / 3;
  if (n === 0 || count <= 0) return new Uint32Array(0);
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++)
    for (let k = 0; k < 3; k++) {
      const v = p[3 * i + k]!;
      if (v < lo[k]!) lo[k] = v;
      if (v > hi[k]!) hi[k] = v;
    }
  let area = 0;
  for (let i = 0; i < p.length; i += 9) {
    const ux = p[i + 3]! - p[i]!;
    const uy = p[i + 4]! - p[i + 1]!;
    const uz = p[i + 5]! - p[i + 2]!;
    const vx = p[i + 6]! - p[i]!;
    const vy = p[i + 7]! - p[i + 1]!;
    const vz = p[i + 8]! - p[i + 2]!;
    area += 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
  }
  const h = Math.sqrt(area / count) || 1;
  // One vertex per occupied grid cell; cells hashed in typed arrays (a Map is too slow here).
  const cells = new TripleTable(n);
  const picked: number[] = [];
  for (let i = 0; i < n; i++) {
    const ix = Math.floor((p[3 * i]! - lo[0]!) / h);
    const iy = Math.floor((p[3 * i + 1]! - lo[1]!) / h);
    const iz = Math.floor((p[3 * i + 2]! - lo[2]!) / h);
    if (cells.slot(ix, iy, iz, i) < 0) picked.push(i);
  }
  return Uint32Array.from(picked);
}
