import type { MeshData } from '@fieldline/contracts';

type Point = [string, string, string];

const text = (x: number): string => String(Number(x.toPrecision(6)));

/**
 * Where a new probe starts, in the model's units: the centroid of the tetrahedron nearest the centre of
 * the model's bounding box, so the probe lies inside the mesh (qa31: every probe started at (0, 0, 0),
 * which on a coax is in the bore and on the bracket a corner beside the supports, and the engine then
 * leaves it out). Without a volume mesh: the vertex nearest that centre; without vertices: the origin.
 */
export function defaultProbePoint(mesh: Pick<MeshData, 'vertices' | 'tetrahedra'> | null | undefined): Point {
  const vertices = mesh?.vertices ?? [];
  if (vertices.length === 0) return ['0', '0', '0'];
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const v of vertices)
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k] as number, v[k] as number);
      hi[k] = Math.max(hi[k] as number, v[k] as number);
    }
  const centre = lo.map((l, k) => 0.5 * (l + (hi[k] as number)));
  let best: number[] | null = null;
  let bestDistance = Infinity;
  const consider = (p: number[]) => {
    const d = p.reduce((s, x, k) => s + (x - (centre[k] as number)) ** 2, 0);
    if (d < bestDistance) {
      bestDistance = d;
      best = p;
    }
  };
  const tets = mesh?.tetrahedra ?? [];
  if (tets.length > 0)
    for (const t of tets) {
      const c = [0, 0, 0];
      for (const i of t)
        for (let k = 0; k < 3; k++) c[k] = (c[k] as number) + (vertices[i]?.[k] ?? 0) / t.length;
      consider(c);
    }
  else for (const v of vertices) consider(v);
  const p = (best ?? centre) as number[];
  return [text(p[0] as number), text(p[1] as number), text(p[2] as number)];
}
