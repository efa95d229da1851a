import type { MeshData } from '@fieldline/contracts';

type Mesh = Pick<MeshData, 'vertices' | 'tetrahedra'>;
type Vec = readonly number[];

/**
 * Where a probe point lies relative to the loaded model, checked in the form before a run (qa32: a probe
 * outside the mesh was only mentioned after the run, in the time-domain notes):
 *  - 'inside': in some tetrahedron (or, without a volume mesh, within the bounding box);
 *  - 'outside-box': beyond the bounding box, with the first axis it is beyond;
 *  - 'outside-mesh': within the box but in no tetrahedron (a bore, a cavity, a notch).
 */
export type ProbePlace =
  | { kind: 'inside' }
  | { kind: 'outside-box'; axis: 'x' | 'y' | 'z'; low: number; high: number }
  | { kind: 'outside-mesh' };

const AXES = ['x', 'y', 'z'] as const;

export function locateProbe(mesh: Mesh, point: Vec): ProbePlace {
  const { vertices } = mesh;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const v of vertices)
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k]!, v[k]!);
      hi[k] = Math.max(hi[k]!, v[k]!);
    }
  // a point on a face of the model is in it (as the engine finds it); the slack covers rounding in its digits
  const slack = 1e-9 * Math.hypot(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!);
  for (let k = 0; k < 3; k++) {
    const c = point[k]!;
    if (c < lo[k]! - slack || c > hi[k]! + slack)
      return { kind: 'outside-box', axis: AXES[k]!, low: lo[k]!, high: hi[k]! };
  }
  const tets = mesh.tetrahedra ?? [];
  if (tets.length === 0) return { kind: 'inside' };
  const tolerance = 1e-9;
  for (const t of tets) {
    const a = vertices[t[0]!]!;
    const b = vertices[t[1]!]!;
    const c = vertices[t[2]!]!;
    const d = vertices[t[3]!]!;
    if (!inBox(a, b, c, d, point, slack)) continue;
    if (inTetrahedron(a, b, c, d, point, tolerance)) return { kind: 'inside' };
  }
  return { kind: 'outside-mesh' };
}

function inBox(a: Vec, b: Vec, c: Vec, d: Vec, p: Vec, slack: number): boolean {
  for (let k = 0; k < 3; k++) {
    const x = p[k]!;
    if (x < Math.min(a[k]!, b[k]!, c[k]!, d[k]!) - slack || x > Math.max(a[k]!, b[k]!, c[k]!, d[k]!) + slack)
      return false;
  }
  return true;
}

/** Barycentric coordinates of p, all ≥ −tolerance (relative to the tetrahedron's volume). */
function inTetrahedron(a: Vec, b: Vec, c: Vec, d: Vec, p: Vec, tolerance: number): boolean {
  const volume = det(a, b, c, d);
  if (volume === 0) return false;
  const weights = [det(p, b, c, d), det(a, p, c, d), det(a, b, p, d), det(a, b, c, p)];
  return weights.every((w) => w / volume >= -tolerance);
}

/** Six times the signed volume of the tetrahedron (a, b, c, d). */
function det(a: Vec, b: Vec, c: Vec, d: Vec): number {
  const u = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
  const v = [c[0]! - a[0]!, c[1]! - a[1]!, c[2]! - a[2]!];
  const w = [d[0]! - a[0]!, d[1]! - a[1]!, d[2]! - a[2]!];
  return (
    u[0]! * (v[1]! * w[2]! - v[2]! * w[1]!) -
    u[1]! * (v[0]! * w[2]! - v[2]! * w[0]!) +
    u[2]! * (v[0]! * w[1]! - v[1]! * w[0]!)
  );
}
