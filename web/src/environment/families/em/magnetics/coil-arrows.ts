import type { ArrowMark, MeshData } from '@fieldline/contracts';
import type { AnalysisForm } from '../../../config/analysis-form.ts';
import { parseFaceList } from '../../../config/face-list.ts';
import { parseInteger, parseNumber } from '../../../config/numbers.ts';

/**
 * Each coil's current direction drawn on the model before a run (markArrows), from the mesh alone — the
 * engine's own path (em/magnetics/coil_paths.py) is a potential solve shown only after the run:
 * - a closed ring: arrows round the body at its mean radius, right-handed about its axis — the coil's `axis`,
 *   else, as the engine picks it, the first principal axis of the body (largest moment first) that the body
 *   goes around, signed so its largest component is positive;
 * - a winding that wraps a body: round the core's cross-section, the engine's sense (along +axis on the inner
 *   wall), at a few of the winding's elements;
 * - open ends (a coil's or a solid conductor's picked terminals): into the body at `in`, out of it at `out`.
 * The centroid and axes are volume-weighted over the body's tetrahedra (its surface vertices before the
 * volume mesh). A current below zero turns the arrows round.
 */
type V = [number, number, number];

const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: V, s: number): V => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const norm = (a: V) => Math.hypot(a[0], a[1], a[2]);
const unit = (a: V): V => scale(a, 1 / (norm(a) || 1));

/** A body as weighted points: tetrahedron centroids by volume, or surface vertices alike. */
interface Body {
  points: V[];
  weights: number[];
  /** every vertex the body uses (for its extent about an axis) */
  vertices: V[];
}

const bodyCache = new WeakMap<MeshData, Map<number, Body | null>>();

function bodyOf(mesh: MeshData, region: number): Body | null {
  let cache = bodyCache.get(mesh);
  if (!cache) {
    cache = new Map();
    bodyCache.set(mesh, cache);
  }
  if (!cache.has(region)) cache.set(region, readBody(mesh, region));
  return cache.get(region) ?? null;
}

function readBody(mesh: MeshData, region: number): Body | null {
  const vertex = (k: number) => mesh.vertices[k] as V | undefined;
  const used = new Set<number>();
  const points: V[] = [];
  const weights: number[] = [];
  const tets = mesh.tetrahedra ?? [];
  const regions = mesh.tetrahedron_regions;
  if (tets.length > 0 && regions?.length === tets.length) {
    tets.forEach((t, i) => {
      if (regions[i] !== region) return;
      const p = t.map(vertex);
      if (p.some((x) => x === undefined)) return;
      const [a, b, c, d] = p as [V, V, V, V];
      const volume = Math.abs(dot(sub(b, a), cross(sub(c, a), sub(d, a)))) / 6;
      points.push(scale(add(add(a, b), add(c, d)), 0.25));
      weights.push(volume);
      for (const k of t) used.add(k);
    });
  } else {
    // before the volume mesh: the body's surface triangles (their 4th entry is the body)
    const single = mesh.faces.every((f) => f.length < 4);
    for (const f of mesh.faces)
      if (single ? region === 0 : f[3] === region) for (const k of f.slice(0, 3)) used.add(k);
    for (const k of used) {
      const p = vertex(k);
      if (!p) continue;
      points.push(p);
      weights.push(1);
    }
  }
  if (points.length === 0) return null;
  const vertices = [...used].map(vertex).filter((p): p is V => p !== undefined);
  return { points, weights, vertices };
}

function centroid(body: Body): V {
  const total = body.weights.reduce((s, w) => s + w, 0) || 1;
  return scale(
    body.points.reduce<V>((s, p, i) => add(s, scale(p, body.weights[i] ?? 0)), [0, 0, 0]),
    1 / total,
  );
}

/** Eigenvectors of a symmetric 3×3 matrix by Jacobi rotations, largest eigenvalue first. */
export function symmetricEigenvectors(m: number[][]): V[] {
  const a = m.map((r) => [...r]) as number[][];
  const v = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let p = 0; p < 3; p++) for (let q = p + 1; q < 3; q++) off += a[p]![q]! ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < 3; p++)
      for (let q = p + 1; q < 3; q++) {
        const apq = a[p]![q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < 3; k++) {
          const akp = a[k]![p]!;
          const akq = a[k]![q]!;
          a[k]![p] = c * akp - s * akq;
          a[k]![q] = s * akp + c * akq;
        }
        for (let k = 0; k < 3; k++) {
          const apk = a[p]![k]!;
          const aqk = a[q]![k]!;
          a[p]![k] = c * apk - s * aqk;
          a[q]![k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 3; k++) {
          const vkp = v[k]![p]!;
          const vkq = v[k]![q]!;
          v[k]![p] = c * vkp - s * vkq;
          v[k]![q] = s * vkp + c * vkq;
        }
      }
  }
  const order = [0, 1, 2].sort((i, j) => a[j]![j]! - a[i]![i]!);
  return order.map((i) => [v[0]![i]!, v[1]![i]!, v[2]![i]!] as V);
}

/** The body's principal axes of inertia about its centroid, largest moment first (the engine's order). */
function principalAxes(body: Body, centre: V): V[] {
  const second = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  body.points.forEach((p, n) => {
    const d = sub(p, centre);
    const w = body.weights[n] ?? 0;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) second[i]![j]! += w * d[i]! * d[j]!;
  });
  const trace = second[0]![0]! + second[1]![1]! + second[2]![2]!;
  const inertia = second.map((row, i) => row.map((x, j) => (i === j ? trace : 0) - x));
  return symmetricEigenvectors(inertia);
}

/** A frame about `axis`: two unit vectors across it. */
function across(axis: V): [V, V] {
  let e1 = cross(axis, [1, 0, 0]);
  if (norm(e1) < 1e-6) e1 = cross(axis, [0, 1, 0]);
  e1 = unit(e1);
  return [e1, cross(axis, e1)];
}

/** Whether the body goes round the line (centre, axis): it covers every direction about it (no gap of a
 * quarter turn, as the engine asks) and none of it lies on the line. */
function goesAround(body: Body, centre: V, axis: V): boolean {
  const [e1, e2] = across(axis);
  const angles: number[] = [];
  let nearest = Infinity;
  let farthest = 0;
  for (const p of body.vertices) {
    const d = sub(p, centre);
    const r = norm(sub(d, scale(axis, dot(d, axis))));
    nearest = Math.min(nearest, r);
    farthest = Math.max(farthest, r);
    angles.push(Math.atan2(dot(d, e2), dot(d, e1)));
  }
  if (angles.length < 3 || nearest < 1e-3 * farthest) return false;
  angles.sort((x, y) => x - y);
  let gap = angles[0]! + 2 * Math.PI - angles[angles.length - 1]!;
  for (let i = 1; i < angles.length; i++) gap = Math.max(gap, angles[i]! - angles[i - 1]!);
  return gap < Math.PI / 2;
}

const positive = (axis: V): V => {
  const k = [0, 1, 2].reduce((best, i) => (Math.abs(axis[i]!) > Math.abs(axis[best]!) ? i : best), 0);
  return axis[k]! > 0 ? axis : scale(axis, -1);
};

/** The centre and direction of the hole a ring-shaped body goes around, or null when it goes round none. */
export function ringAxis(body: Body, given?: V): { centre: V; axis: V } | null {
  const centre = centroid(body);
  if (given && norm(given) > 0) return { centre, axis: unit(given) };
  for (const candidate of principalAxes(body, centre))
    if (goesAround(body, centre, candidate)) return { centre, axis: positive(unit(candidate)) };
  return null;
}

/** Weighted mean distance from the axis and height along it. */
function meanRadius(body: Body, centre: V, axis: V): { rho: number; zeta: number } {
  let rho = 0;
  let zeta = 0;
  let total = 0;
  body.points.forEach((p, i) => {
    const w = body.weights[i] ?? 0;
    const d = sub(p, centre);
    const z = dot(d, axis);
    rho += w * norm(sub(d, scale(axis, z)));
    zeta += w * z;
    total += w;
  });
  return { rho: rho / (total || 1), zeta: zeta / (total || 1) };
}

/**
 * Whether a body is a ring topologically — one handle, as the engine's cut needs: the Euler characteristic
 * V − E + F of its boundary surface is 0 (a torus) rather than 2 (a ball; a half ring too, which the
 * principal-axis test alone can take for a ring about a line through its middle).
 */
function hasOneHandle(mesh: MeshData, region: number): boolean {
  const key = (a: number, b: number, c: number) => [a, b, c].sort((x, y) => x - y).join(',');
  const triangles = new Map<string, number[]>();
  const tets = mesh.tetrahedra ?? [];
  const regions = mesh.tetrahedron_regions;
  if (tets.length > 0 && regions?.length === tets.length) {
    tets.forEach((t, i) => {
      if (regions[i] !== region) return;
      for (const [a, b, c] of [
        [t[0], t[1], t[2]],
        [t[0], t[1], t[3]],
        [t[0], t[2], t[3]],
        [t[1], t[2], t[3]],
      ] as [number, number, number][]) {
        const k = key(a, b, c);
        // a face two of the body's tetrahedra share is inside it
        if (triangles.has(k)) triangles.delete(k);
        else triangles.set(k, [a, b, c]);
      }
    });
  } else {
    const single = mesh.faces.every((f) => f.length < 4);
    for (const f of mesh.faces)
      if (single ? region === 0 : f[3] === region) triangles.set(key(f[0]!, f[1]!, f[2]!), f.slice(0, 3));
  }
  if (triangles.size === 0) return false;
  const vertices = new Set<number>();
  const edges = new Set<string>();
  for (const [a, b, c] of triangles.values() as Iterable<[number, number, number]>) {
    vertices.add(a).add(b).add(c);
    for (const [p, q] of [
      [a, b],
      [b, c],
      [a, c],
    ] as [number, number][])
      edges.add(p < q ? `${p},${q}` : `${q},${p}`);
  }
  return vertices.size - edges.size + triangles.size === 0;
}

const ARROWS_PER_RING = 8;

/** Arrows round a closed ring, right-handed about `axis` (reversed for a negative current). */
function ringArrows(body: Body, given: V | undefined, sign: number, member: number): ArrowMark[] {
  const ring = ringAxis(body, given);
  if (!ring) return [];
  const { centre, axis } = ring;
  const { rho, zeta } = meanRadius(body, centre, axis);
  const [e1, e2] = across(axis);
  const length = (0.6 * 2 * Math.PI * rho) / ARROWS_PER_RING;
  return Array.from({ length: ARROWS_PER_RING }, (_, k) => {
    const theta = (2 * Math.PI * k) / ARROWS_PER_RING;
    const radial = add(scale(e1, Math.cos(theta)), scale(e2, Math.sin(theta)));
    const at = add(add(centre, scale(axis, zeta)), scale(radial, rho));
    const direction = scale(unit(cross(axis, radial)), sign * length);
    return { origin: sub(at, scale(direction, 0.5)), direction, tone: 'load' as const, member };
  });
}

/** Arrows round a core's cross-section at a few of the winding's elements: along +axis on the inner wall. */
function wrapArrows(
  winding: Body,
  core: Body,
  given: V | undefined,
  sign: number,
  member: number,
): ArrowMark[] {
  const ring = ringAxis(core, given);
  if (!ring) return [];
  const { centre, axis } = ring;
  const { rho: rho0, zeta: zeta0 } = meanRadius(core, centre, axis);
  const step = Math.max(1, Math.floor(winding.points.length / 16));
  const out: ArrowMark[] = [];
  for (let i = 0; i < winding.points.length; i += step) {
    const d = sub(winding.points[i]!, centre);
    const z = dot(d, axis);
    const radialVector = sub(d, scale(axis, z));
    const r = norm(radialVector);
    if (!(r > 0)) continue;
    const u = rho0 - r;
    const w = z - zeta0;
    // the gradient of atan2(w, u): u ∇w − w ∇u with ∇w = axis, ∇u = −e_r
    const tangent = add(scale(axis, u), scale(radialVector, w / r));
    const length = 0.5 * Math.hypot(u, w);
    if (!(norm(tangent) > 0 && length > 0)) continue;
    const direction = scale(unit(tangent), sign * length);
    out.push({ origin: sub(winding.points[i]!, scale(direction, 0.5)), direction, tone: 'load', member });
  }
  return out;
}

/** Into the body at the `in` faces, out of it at `out`: one arrow on each end's centroid, along its normal. */
function terminalArrows(
  mesh: MeshData,
  body: Body,
  ends: { in: number[]; out: number[] },
  sign: number,
  member: number,
): ArrowMark[] {
  const inside = centroid(body);
  const extent = Math.max(...body.vertices.map((p) => norm(sub(p, inside))), 0);
  const length = 0.3 * extent;
  const end = (ids: number[]) => {
    let area = 0;
    let centre: V = [0, 0, 0];
    let normal: V = [0, 0, 0];
    for (const id of ids) {
      const f = mesh.faces[id - 1];
      const p = f?.slice(0, 3).map((k) => mesh.vertices[k] as V | undefined);
      if (!p || p.some((x) => x === undefined)) continue;
      const [a, b, c] = p as [V, V, V];
      let n = scale(cross(sub(b, a), sub(c, a)), 0.5);
      // one orientation for the whole end, whatever each triangle's winding
      if (dot(n, normal) < 0) n = scale(n, -1);
      const s = norm(n);
      area += s;
      normal = add(normal, n);
      centre = add(centre, scale(add(add(a, b), c), s / 3));
    }
    if (!(area > 0)) return null;
    centre = scale(centre, 1 / area);
    // pointing into the body: towards the body's nearby elements
    const near = body.points
      .map((p) => ({ p, d: norm(sub(p, centre)) }))
      .sort((x, y) => x.d - y.d)
      .slice(0, 8)
      .reduce<V>((s, x) => add(s, x.p), [0, 0, 0]);
    const towards = sub(scale(near, 1 / Math.min(8, body.points.length)), centre);
    const n = unit(normal);
    return { centre, into: dot(n, towards) >= 0 ? n : scale(n, -1) };
  };
  const a = end(ends.in);
  const b = end(ends.out);
  const out: ArrowMark[] = [];
  if (a) {
    const direction = scale(a.into, sign * length);
    out.push({ origin: sign > 0 ? sub(a.centre, direction) : a.centre, direction, tone: 'load', member });
  }
  if (b) {
    const direction = scale(b.into, -sign * length);
    out.push({ origin: sign > 0 ? b.centre : sub(b.centre, direction), direction, tone: 'load', member });
  }
  return out;
}

const region = (text: string) => {
  const n = parseInteger(text);
  return n !== undefined && n >= 0 ? n : undefined;
};
const triple = (t: readonly string[]): V | undefined => {
  const v = t.map((x) => parseNumber(x));
  return v.every((x) => x !== undefined) && norm(v as V) > 0 ? (v as V) : undefined;
};
const sides = <R extends { side: 'in' | 'out'; faces: string }>(rows: R[]) => ({
  in: rows.filter((r) => r.side === 'in').flatMap((r) => parseFaceList(r.faces)),
  out: rows.filter((r) => r.side === 'out').flatMap((r) => parseFaceList(r.faces)),
});

/** Every coil's arrows and every solid conductor's, one member each. */
export function coilArrows(form: AnalysisForm, mesh: MeshData): ArrowMark[] {
  const out: ArrowMark[] = [];
  form.coils.forEach((coil, member) => {
    const r = region(coil.body);
    const body = r === undefined ? null : bodyOf(mesh, r);
    if (!body) return;
    const sign = (parseNumber(coil.current) ?? 1) < 0 ? -1 : 1;
    if (coil.routing === 'closed') out.push(...ringArrows(body, triple(coil.axis), sign, member));
    if (coil.routing === 'wraps') {
      const c = region(coil.wraps);
      const core = c === undefined ? null : bodyOf(mesh, c);
      if (core) out.push(...wrapArrows(body, core, undefined, sign, member));
    }
    if (coil.routing === 'terminals')
      out.push(
        ...terminalArrows(
          mesh,
          body,
          sides(form.coilTerminals.filter((t) => t.coilKey === coil.key)),
          sign,
          member,
        ),
      );
  });
  form.solidConductors.forEach((s, k) => {
    const r = region(s.body);
    const body = r === undefined ? null : bodyOf(mesh, r);
    if (!body) return;
    const sign = (parseNumber(s.current) ?? 1) < 0 ? -1 : 1;
    const member = form.coils.length + k;
    if (s.terminals === 'picked') {
      const ends = sides(form.conductorTerminals.filter((t) => t.conductorKey === s.key));
      out.push(...terminalArrows(mesh, body, ends, sign, member));
    } else if (r !== undefined && hasOneHandle(mesh, r)) {
      // Ends left to the engine: a ring round a hole has none (a shorted turn, a solid secondary), and its
      // current circulates as a closed coil's, about the axis the engine finds; an open conductor's ends
      // are known only after the run, so nothing is drawn for it.
      out.push(...ringArrows(body, undefined, sign, member));
    }
  });
  return out;
}
