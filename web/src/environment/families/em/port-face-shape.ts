/**
 * What a wave port's picked faces are, read from the mesh before the run: how many boundary loops the face
 * has (one for a hollow guide's cross-section, two for a coaxial annulus, whose mode is TEM), and whether the
 * conductors those loops stand for are conductors of the model — walls, with no material of the port's body
 * behind them. A vendor's connector modelled as one fused solid has its pin and shell inside the
 * dielectric's body: the "line" beyond such a port is a filled circular guide below cut-off, and the port
 * reflects everything (issue 40, KiCad's SMA connector).
 */
import { locateProbe } from '../../config/probe-inside.ts';

type Vec = [number, number, number];
type Mesh = { vertices: number[][]; faces: number[][]; tetrahedra?: number[][] };

export interface PortLoop {
  centre: Vec;
  /** mean distance of the loop's vertices from its centre (model units) */
  radius: number;
  /** false when the port's body goes on behind the loop: no conductor wall there */
  conductor: boolean;
}

export interface PortFaceShape {
  /** innermost first */
  loops: PortLoop[];
  /** two loops, one inside the other: a coaxial cross-section (TEM) */
  coaxial: boolean;
}

const add = (a: Vec, b: Vec, s = 1): Vec => [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]];
const sub = (a: Vec, b: Vec): Vec => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec, b: Vec): Vec => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const norm = (a: Vec) => Math.hypot(a[0], a[1], a[2]);
const unit = (a: Vec): Vec => {
  const l = norm(a) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};
const edgeKey = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);

/** Boundary loops of the picked triangles, as vertex lists (edges used by one picked triangle only). */
function boundaryLoops(faces: number[][], picked: Set<number>): number[][] {
  const use = new Map<string, [number, number, number]>();
  for (const i of picked) {
    const f = faces[i]!;
    for (let k = 0; k < 3; k++) {
      const a = f[k]!;
      const b = f[(k + 1) % 3]!;
      const key = edgeKey(a, b);
      const seen = use.get(key);
      use.set(key, [a, b, (seen?.[2] ?? 0) + 1]);
    }
  }
  const neighbours = new Map<number, number[]>();
  for (const [a, b, count] of use.values()) {
    if (count !== 1) continue;
    neighbours.set(a, [...(neighbours.get(a) ?? []), b]);
    neighbours.set(b, [...(neighbours.get(b) ?? []), a]);
  }
  const visited = new Set<number>();
  const loops: number[][] = [];
  for (const start of neighbours.keys()) {
    if (visited.has(start)) continue;
    const loop: number[] = [];
    const stack = [start];
    while (stack.length) {
      const v = stack.pop()!;
      if (visited.has(v)) continue;
      visited.add(v);
      loop.push(v);
      for (const w of neighbours.get(v) ?? []) if (!visited.has(w)) stack.push(w);
    }
    loops.push(loop);
  }
  return loops;
}

/** `faceIds` are 1-based surface-triangle ids, as the form's face lists hold them. */
export function portFaceShape(mesh: Mesh, faceIds: number[]): PortFaceShape | null {
  const v = mesh.vertices as Vec[];
  const picked = new Set(faceIds.filter((id) => id >= 1 && id <= mesh.faces.length).map((id) => id - 1));
  if (picked.size === 0) return null;
  let area: Vec = [0, 0, 0];
  let centroid: Vec = [0, 0, 0];
  for (const i of picked) {
    const [a, b, c] = mesh.faces[i]!.map((k) => v[k]!) as [Vec, Vec, Vec];
    area = add(area, cross(sub(b, a), sub(c, a)));
    centroid = add(centroid, add(add(a, b), c), 1 / (3 * picked.size));
  }
  let normal = unit(area);
  const span = Math.sqrt(norm(area) / 2);
  // the side of the port the model's volume lies on
  const tets = mesh.tetrahedra ?? [];
  const inside = (p: Vec) => tets.length > 0 && locateProbe(mesh as never, p).kind === 'inside';
  if (!inside(add(centroid, normal, -1e-3 * span)) && inside(add(centroid, normal, 1e-3 * span)))
    normal = [-normal[0], -normal[1], -normal[2]];
  const inward: Vec = [-normal[0], -normal[1], -normal[2]];

  const loops = boundaryLoops(mesh.faces, picked).map((ids) => {
    const centre = ids.reduce<Vec>((s, k) => add(s, v[k]!, 1 / ids.length), [0, 0, 0]);
    const radius = ids.reduce((s, k) => s + norm(sub(v[k]!, centre)), 0) / ids.length;
    return { ids, centre, radius };
  });
  loops.sort((x, y) => x.radius - y.radius);
  const coaxial = loops.length === 2;
  return {
    coaxial,
    loops: loops.map(({ ids, centre, radius }, i) => {
      const depth = 0.5 * radius;
      let probe: Vec;
      if (coaxial && i === 0) {
        // behind the inner loop: the inner conductor's place
        probe = add(centre, inward, depth);
      } else {
        // just beyond the outer loop, radially from a loop vertex: the outer conductor's place
        const rim = v[ids[0]!]!;
        probe = add(add(rim, unit(sub(rim, centre)), 0.1 * radius), inward, depth);
      }
      return { centre, radius, conductor: tets.length === 0 || !inside(probe) };
    }),
  };
}

/** The sentence the form shows beside a port whose conductors are not conductors of the model, or null. */
export function portConductorWarning(portLabel: string, shape: PortFaceShape | null): string | null {
  if (!shape) return null;
  const names = shape.loops
    .map((loop, i) => ({ loop, name: shape.coaxial && i === 0 ? 'inner' : 'outer' }))
    .filter(({ loop }) => !loop.conductor)
    .map(({ name }) => name);
  if (names.length === 0) return null;
  return (
    `${portLabel}: the model's body goes on behind the port's ${names.join(' and ')} boundary, so it is not ` +
    'a conductor (a connector modelled as one solid has its pin and shell inside the dielectric). The port ' +
    'would reflect everything: model the dielectric as its own body without the metal, so that the ' +
    'conductors are its walls.'
  );
}
