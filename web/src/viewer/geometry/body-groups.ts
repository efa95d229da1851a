/** Triangles sorted by body (counting sort) with per-body groups [start, count, body] in triangles. */
export function groupByBody(
  triangles: Uint32Array,
  faceIds: Uint32Array | null,
  bodies: Uint32Array,
  bodyCount: number,
): {
  display: Uint32Array;
  faceIds: Uint32Array;
  triangleBodies: Uint32Array;
  groups: [number, number, number][];
} {
  const n = bodies.length;
  const counts = new Uint32Array(bodyCount + 1);
  for (let t = 0; t < n; t++) counts[Math.min(bodies[t]!, bodyCount - 1) + 1]!++;
  const start = new Uint32Array(bodyCount + 1);
  for (let b = 0; b < bodyCount; b++) start[b + 1] = start[b]! + counts[b + 1]!;
  const fill = start.slice();
  const display = new Uint32Array(3 * n);
  const ids = new Uint32Array(n);
  const sortedBodies = new Uint32Array(n);
  for (let t = 0; t < n; t++) {
    const b = Math.min(bodies[t]!, bodyCount - 1);
    const k = fill[b]!++;
    display.set(triangles.subarray(3 * t, 3 * t + 3), 3 * k);
    ids[k] = faceIds ? faceIds[t]! : t + 1;
    sortedBodies[k] = b;
  }
  const groups: [number, number, number][] = [];
  for (let b = 0; b < bodyCount; b++) groups.push([start[b]!, start[b + 1]! - start[b]!, b]);
  return { display, faceIds: ids, triangleBodies: sortedBodies, groups };
}
