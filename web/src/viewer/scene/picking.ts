/**
 * Ray casting against triangle lists held as typed arrays (no per-triangle objects): the surface for face
 * picking and probing, the section cut for probing inside the volume.
 */

export interface RayHit {
  distance: number;
  /** triangle index in the list */
  triangle: number;
  /** barycentric weights of the triangle's three vertices */
  u: number;
  v: number;
  w: number;
  point: [number, number, number];
}

export interface Ray {
  origin: [number, number, number];
  direction: [number, number, number];
}

/**
 * Nearest hit of a ray with indexed triangles. `accept(tri, point)` filters (hidden bodies, clipped side).
 * Möller–Trumbore, both faces.
 */
export function raycastTriangles(
  ray: Ray,
  positions: Float32Array,
  index: Uint32Array | null,
  triangleCount: number,
  accept?: (triangle: number, point: [number, number, number]) => boolean,
): RayHit | null {
  const [ox, oy, oz] = ray.origin;
  const [dx, dy, dz] = ray.direction;
  let best: RayHit | null = null;
  for (let t = 0; t < triangleCount; t++) {
    const ia = index ? index[3 * t]! : 3 * t;
    const ib = index ? index[3 * t + 1]! : 3 * t + 1;
    const ic = index ? index[3 * t + 2]! : 3 * t + 2;
    const ax = positions[3 * ia]!;
    const ay = positions[3 * ia + 1]!;
    const az = positions[3 * ia + 2]!;
    const e1x = positions[3 * ib]! - ax;
    const e1y = positions[3 * ib + 1]! - ay;
    const e1z = positions[3 * ib + 2]! - az;
    const e2x = positions[3 * ic]! - ax;
    const e2y = positions[3 * ic + 1]! - ay;
    const e2z = positions[3 * ic + 2]! - az;
    const px = dy * e2z - dz * e2y;
    const py = dz * e2x - dx * e2z;
    const pz = dx * e2y - dy * e2x;
    const det = e1x * px + e1y * py + e1z * pz;
    if (det > -1e-20 && det < 1e-20) continue;
    const inv = 1 / det;
    const tx = ox - ax;
    const ty = oy - ay;
    const tz = oz - az;
    const u = (tx * px + ty * py + tz * pz) * inv;
    if (u < 0 || u > 1) continue;
    const qx = ty * e1z - tz * e1y;
    const qy = tz * e1x - tx * e1z;
    const qz = tx * e1y - ty * e1x;
    const v = (dx * qx + dy * qy + dz * qz) * inv;
    if (v < 0 || u + v > 1) continue;
    const dist = (e2x * qx + e2y * qy + e2z * qz) * inv;
    if (dist <= 0 || (best && dist >= best.distance)) continue;
    const point: [number, number, number] = [ox + dist * dx, oy + dist * dy, oz + dist * dz];
    if (accept && !accept(t, point)) continue;
    best = { distance: dist, triangle: t, u: 1 - u - v, v: u, w: v, point };
  }
  return best;
}
