import { describe, expect, it } from 'vitest';
import { defaultProbePoint } from '../../src/environment/config/probe-default.ts';

/** A new probe starts inside the model (qa31: every probe started at (0, 0, 0), in a coax's bore). */
describe('where a new probe starts', () => {
  // A hollow square tube around the z axis (x, y ∈ [−2, 2] minus [−1, 1]), z ∈ [0, 10], as four slabs of
  // two tetrahedra each: the bounding box's centre (0, 0, 5) is in the hole, outside the mesh.
  const vertices: [number, number, number][] = [];
  const tetrahedra: number[][] = [];
  for (const [x0, x1, y0, y1] of [
    [-2, 2, 1, 2],
    [-2, 2, -2, -1],
    [-2, -1, -1, 1],
    [1, 2, -1, 1],
  ] as const) {
    const base = vertices.length;
    for (const z of [0, 10]) vertices.push([x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]);
    tetrahedra.push([base, base + 1, base + 2, base + 6], [base, base + 2, base + 3, base + 6]);
  }

  it('is the centroid of the tetrahedron nearest the bounding-box centre, inside the mesh', () => {
    const [x, y, z] = defaultProbePoint({ vertices, tetrahedra }).map(Number) as [number, number, number];
    expect(Math.max(Math.abs(x), Math.abs(y))).toBeGreaterThanOrEqual(1); // in a wall, not in the hole
    expect(z).toBeGreaterThan(0);
    expect(z).toBeLessThan(10);
    const inside = tetrahedra.some((t) => {
      const c = [0, 1, 2].map((k) => t.reduce((s, i) => s + (vertices[i]?.[k] ?? 0), 0) / 4);
      return c.every((v, k) => Math.abs(v - [x, y, z][k]!) < 1e-9);
    });
    expect(inside).toBe(true);
  });

  it('without a volume mesh it is the vertex nearest the centre; without a model, the origin', () => {
    expect(
      defaultProbePoint({
        vertices: [
          [0, 0, 0],
          [4, 4, 4],
          [1.9, 2.1, 2],
        ],
      }),
    ).toEqual(['1.9', '2.1', '2']);
    expect(defaultProbePoint(null)).toEqual(['0', '0', '0']);
  });
});
