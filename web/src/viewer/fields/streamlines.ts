import type { TetLocator } from './tet-locator.ts';

/**
 * Field lines of a vertex vector field on a tetrahedral mesh: RK4 on the unit direction field
 * dx/ds = v/|v| (arc-length parameter), both ways from each seed, stopping at the mesh boundary,
 * where the field vanishes, after maxSteps, or when the line closes on itself (magnetic loops).
 */

export interface StreamlineOptions {
  /** arc length per step (model units) */
  step: number;
  maxSteps: number;
  /** stop where |v| falls below this */
  minMagnitude: number;
}

export interface Polyline {
  points: number[];
  magnitudes: number[];
  closed: boolean;
}

export function traceStreamline(
  locator: TetLocator,
  vectors: Float32Array,
  seed: readonly [number, number, number],
  options: StreamlineOptions,
): Polyline | null {
  const v = new Float64Array(3);
  if (!locator.vectorAt(vectors, seed[0], seed[1], seed[2], v)) return null;
  const m0 = Math.hypot(v[0]!, v[1]!, v[2]!);
  if (!(m0 > options.minMagnitude)) return null;
  const forward = integrate(locator, vectors, seed, 1, options);
  if (forward.closed) {
    return { points: [...seed, ...forward.points], magnitudes: [m0, ...forward.magnitudes], closed: true };
  }
  const backward = integrate(locator, vectors, seed, -1, options);
  const points: number[] = [];
  const magnitudes: number[] = [];
  for (let i = backward.magnitudes.length - 1; i >= 0; i--) {
    points.push(backward.points[3 * i]!, backward.points[3 * i + 1]!, backward.points[3 * i + 2]!);
    magnitudes.push(backward.magnitudes[i]!);
  }
  points.push(...seed);
  magnitudes.push(m0);
  points.push(...forward.points);
  magnitudes.push(...forward.magnitudes);
  return { points, magnitudes, closed: false };
}

function integrate(
  locator: TetLocator,
  vectors: Float32Array,
  seed: readonly [number, number, number],
  sign: 1 | -1,
  { step, maxSteps, minMagnitude }: StreamlineOptions,
): { points: number[]; magnitudes: number[]; closed: boolean } {
  const points: number[] = [];
  const magnitudes: number[] = [];
  const v = new Float64Array(3);
  const k = [new Float64Array(3), new Float64Array(3), new Float64Array(3), new Float64Array(3)];
  // Unit direction at (x, y, z) into out; false outside the mesh or where the field vanishes.
  const dir = (x: number, y: number, z: number, out: Float64Array): boolean => {
    if (!locator.vectorAt(vectors, x, y, z, v)) return false;
    const m = Math.hypot(v[0]!, v[1]!, v[2]!);
    if (!(m > minMagnitude)) return false;
    out[0] = (sign * v[0]!) / m;
    out[1] = (sign * v[1]!) / m;
    out[2] = (sign * v[2]!) / m;
    return true;
  };
  let [x, y, z] = seed;
  let travelled = 0;
  const h = step;
  for (let s = 0; s < maxSteps; s++) {
    const [k1, k2, k3, k4] = k as [Float64Array, Float64Array, Float64Array, Float64Array];
    if (!dir(x, y, z, k1)) break;
    if (!dir(x + 0.5 * h * k1[0]!, y + 0.5 * h * k1[1]!, z + 0.5 * h * k1[2]!, k2)) break;
    if (!dir(x + 0.5 * h * k2[0]!, y + 0.5 * h * k2[1]!, z + 0.5 * h * k2[2]!, k3)) break;
    if (!dir(x + h * k3[0]!, y + h * k3[1]!, z + h * k3[2]!, k4)) break;
    const nx = x + (h / 6) * (k1[0]! + 2 * k2[0]! + 2 * k3[0]! + k4[0]!);
    const ny = y + (h / 6) * (k1[1]! + 2 * k2[1]! + 2 * k3[1]! + k4[1]!);
    const nz = z + (h / 6) * (k1[2]! + 2 * k2[2]! + 2 * k3[2]! + k4[2]!);
    if (!locator.vectorAt(vectors, nx, ny, nz, v)) break;
    x = nx;
    y = ny;
    z = nz;
    travelled += h;
    points.push(x, y, z);
    magnitudes.push(Math.hypot(v[0]!, v[1]!, v[2]!));
    if (travelled > 8 * h && Math.hypot(x - seed[0], y - seed[1], z - seed[2]) < 0.75 * h) {
      points.push(seed[0], seed[1], seed[2]);
      magnitudes.push(magnitudes[0] ?? 0);
      return { points, magnitudes, closed: true };
    }
  }
  return { points, magnitudes, closed: false };
}

/** Deterministic pseudo-random numbers (mulberry32), so the same seeds come back for the same request. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Seeds inside the mesh: points in random tetrahedra, preferring strong field (the lines worth seeing),
 * or on a plane n·x = offset when `plane` is given (seeding from the section).
 */
export function seedPoints(
  locator: TetLocator,
  magnitudes: Float32Array,
  count: number,
  plane?: { normal: [number, number, number]; offset: number },
): [number, number, number][] {
  const random = rng(12345);
  const { positions, tets } = locator;
  const nt = tets.length / 4;
  const seeds: [number, number, number][] = [];
  if (nt === 0 || count <= 0) return seeds;
  let maxMag = 0;
  for (let i = 0; i < magnitudes.length; i++) if (magnitudes[i]! > maxMag) maxMag = magnitudes[i]!;
  const attempts = count * 60;
  for (let a = 0; a < attempts && seeds.length < count; a++) {
    let x: number;
    let y: number;
    let z: number;
    if (plane) {
      // A random point of the bounding box projected onto the plane.
      const px = locator.lo[0]! + random() * (locator.hi[0]! - locator.lo[0]!);
      const py = locator.lo[1]! + random() * (locator.hi[1]! - locator.lo[1]!);
      const pz = locator.lo[2]! + random() * (locator.hi[2]! - locator.lo[2]!);
      const [nx, ny, nz] = plane.normal;
      const d = nx * px + ny * py + nz * pz - plane.offset;
      x = px - d * nx;
      y = py - d * ny;
      z = pz - d * nz;
      if (locator.locate(x, y, z) < 0) continue;
    } else {
      const t = Math.floor(random() * nt);
      // A random point inside tetrahedron t (sorted uniforms → barycentric weights).
      const r = [random(), random(), random()].sort((p, q) => p - q);
      const w = [r[0]!, r[1]! - r[0]!, r[2]! - r[1]!, 1 - r[2]!];
      x = 0;
      y = 0;
      z = 0;
      for (let j = 0; j < 4; j++) {
        const v = 3 * tets[4 * t + j]!;
        x += w[j]! * positions[v]!;
        y += w[j]! * positions[v + 1]!;
        z += w[j]! * positions[v + 2]!;
      }
    }
    // Accept with probability growing with the local field strength (but never zero).
    const m = locator.scalarAt(magnitudes, x, y, z);
    if (!(m >= 0)) continue;
    if (maxMag > 0 && random() > 0.15 + 0.85 * (m / maxMag)) continue;
    seeds.push([x, y, z]);
  }
  return seeds;
}
