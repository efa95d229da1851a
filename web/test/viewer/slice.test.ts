// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { SlabIndex } from '../../src/viewer/geometry/slab-index.ts';
import {
  extentAlong,
  interpolateAtSlice,
  sliceArea,
  sliceTetrahedra,
} from '../../src/viewer/geometry/slice.ts';
import {
  bodySurfaces,
  bodySurfacesFromModel,
  bodySurfacesFromTets,
  triangleEdges,
} from '../../src/viewer/geometry/surface.ts';
import { boxTets } from './box-tets.ts';

describe('section cut of a tetrahedral mesh', () => {
  const cube = boxTets([0, 0, 0], [1, 1, 1], [4, 4, 4]);

  it('gives the exact regular hexagon for the plane x + y + z = 1.5 through the unit cube', () => {
    const n = 1 / Math.sqrt(3);
    const slice = sliceTetrahedra(cube.positions, cube.tets, [n, n, n], 1.5 * n);
    const exact = (3 * Math.sqrt(3)) / 4; // side √2/2
    const area = sliceArea(slice);
    console.log(
      `hexagon section: area ${area.toFixed(9)}, exact ${exact.toFixed(9)}, error ${Math.abs(area - exact).toExponential(2)}`,
    );
    expect(Math.abs(area - exact)).toBeLessThan(1e-6);
    // Every cut vertex lies on the plane.
    for (let i = 0; i < slice.positions.length; i += 3) {
      const d = (slice.positions[i]! + slice.positions[i + 1]! + slice.positions[i + 2]!) * n - 1.5 * n;
      expect(Math.abs(d)).toBeLessThan(1e-6);
    }
  });

  it('outlines every cut polygon with mesh edges lying in the plane', () => {
    const slice = sliceTetrahedra(cube.positions, cube.tets, [0, 0, 1], 0.3);
    const vertices = slice.weight.length;
    expect(slice.outline.length % 2).toBe(0);
    let length = 0;
    for (let i = 0; i < slice.outline.length; i += 2) {
      const a = slice.outline[i]!;
      const b = slice.outline[i + 1]!;
      expect(a).toBeLessThan(vertices);
      expect(b).toBeLessThan(vertices);
      length += Math.hypot(
        slice.positions[3 * a]! - slice.positions[3 * b]!,
        slice.positions[3 * a + 1]! - slice.positions[3 * b + 1]!,
      );
    }
    // On a 4×4 grid cut through its Kuhn tetrahedra: the square's sides (4) once, each interior grid line
    // (6 of length 1) twice, each cell's cut edges twice — the total is at least the grid's line length.
    expect(length).toBeGreaterThan(4 + 2 * 6);
  });

  it('counts a plane through a layer of mesh faces exactly once', () => {
    const slice = sliceTetrahedra(cube.positions, cube.tets, [0, 0, 1], 0.5);
    const area = sliceArea(slice);
    console.log(`plane on mesh faces: area ${area}, exact 1`);
    expect(area).toBeCloseTo(1, 9);
  });

  it('cuts an oblique box exactly (a rectangle) and interpolates a linear field exactly', () => {
    const box = boxTets([-1, -2, 0], [3, 2, 1], [5, 4, 3]);
    const c = Math.cos(0.3);
    const s = Math.sin(0.3);
    // Plane tilted about z: cuts the full height (1) along a segment across the box in the xy-plane.
    const slice = sliceTetrahedra(box.positions, box.tets, [c, s, 0], 0.9);
    // Segment of the line c·x + s·y = 0.9 inside [-1,3]×[-2,2]: y = ±2 gives x inside [-1, 3].
    const x1 = (0.9 - s * 2) / c;
    const x2 = (0.9 + s * 2) / c;
    const exact = Math.hypot(x1 - x2, 4) * 1;
    expect(Math.abs(sliceArea(slice) - exact)).toBeLessThan(1e-5);
    const field = new Float32Array(box.positions.length / 3);
    for (let v = 0; v < field.length; v++) field[v] = 2 * box.positions[3 * v]! - box.positions[3 * v + 2]!;
    const values = interpolateAtSlice(slice, field);
    for (let i = 0; i < values.length; i++) {
      const expected = 2 * slice.positions[3 * i]! - slice.positions[3 * i + 2]!;
      expect(Math.abs(values[i]! - expected)).toBeLessThan(1e-5);
    }
  });

  it('skips hidden bodies and gives nothing outside the mesh', () => {
    const bodies = new Uint32Array(cube.tets.length / 4).map((_, t) => (t < cube.tets.length / 8 ? 0 : 1));
    const both = sliceTetrahedra(cube.positions, cube.tets, [0, 1, 0], 0.3);
    const one = sliceTetrahedra(cube.positions, cube.tets, [0, 1, 0], 0.3, {
      tetBodies: bodies,
      visibleBodies: [true, false],
    });
    expect(sliceArea(one)).toBeCloseTo(0.5, 6);
    expect(sliceArea(both)).toBeCloseTo(1, 6);
    expect(sliceTetrahedra(cube.positions, cube.tets, [0, 0, 1], 2).weight.length).toBe(0);
    expect(extentAlong(cube.positions, [0, 0, 1])).toEqual([0, 1]);
  });
});

describe('surfaces', () => {
  it('finds the same per-body surfaces from the model faces as from all tetrahedra', () => {
    const box = boxTets([0, 0, 0], [1, 1, 1], [6, 5, 4]);
    const nt = box.tets.length / 4;
    // Three bodies: split by the centroid's x and z.
    const bodies = new Uint32Array(nt);
    for (let t = 0; t < nt; t++) {
      let x = 0;
      let z = 0;
      for (let j = 0; j < 4; j++) {
        x += box.positions[3 * box.tets[4 * t + j]!]! / 4;
        z += box.positions[3 * box.tets[4 * t + j]! + 2]! / 4;
      }
      bodies[t] = x < 0.5 ? 0 : z < 0.5 ? 1 : 2;
    }
    const outer = bodySurfacesFromTets(
      box.tets,
      new Uint32Array(nt),
      new Uint32Array(0),
      undefined,
      1,
    ).triangles;
    const slow = bodySurfacesFromTets(box.tets, bodies, outer, undefined, 3);
    const fast = bodySurfacesFromModel(box.tets, bodies, outer, undefined, 3);
    const keyed = (s: typeof fast) =>
      Array.from({ length: s.bodies.length }, (_, k) =>
        [
          s.bodies[k],
          s.faceIds[k],
          ...Array.from(s.triangles.subarray(3 * k, 3 * k + 3)).sort((a, b) => a - b),
        ].join(','),
      ).sort();
    expect(fast.triangles.length).toBe(slow.triangles.length);
    expect(keyed(fast)).toEqual(keyed(slow));
    expect(fast.groups.map((g) => g[1])).toEqual(slow.groups.map((g) => g[1]));
    // Interfaces show up once per body, without a model face id.
    expect(Array.from(fast.faceIds).filter((id) => id === 0).length).toBeGreaterThan(0);
  });

  it('extracts each body of a two-body box as a closed surface, interfaces once per body', () => {
    const box = boxTets([0, 0, 0], [2, 1, 1], [2, 1, 1]);
    const bodies = new Uint32Array([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
    const s = bodySurfaces(box.tets, bodies, new Uint32Array(0), undefined, 2);
    // Each unit cube: 6 sides × 2 triangles.
    expect(s.groups).toEqual([
      [0, 12],
      [12, 12],
    ]);
    expect(triangleEdges(s.triangles.subarray(0, 36)).length / 2).toBe(12 + 6); // cube edges + face diagonals
  });
});

describe('slab index', () => {
  it('gives the same cut as the full scan, from a few candidates', () => {
    const box = boxTets([0, 0, 0], [1, 2, 1], [8, 10, 6]);
    const n: [number, number, number] = [0.6, 0.8, 0];
    const slabs = new SlabIndex(box.positions, box.tets, n);
    for (const offset of [0.05, 0.5, 0.8001, 1.3, 1.55]) {
      const full = sliceTetrahedra(box.positions, box.tets, n, offset);
      const fast = sliceTetrahedra(box.positions, box.tets, n, offset, {
        candidates: slabs.candidates(offset),
        projection: slabs.projection,
      });
      expect(slabs.candidates(offset).length).toBeLessThan(box.tets.length / 4 / 3);
      expect(fast.weight.length).toBe(full.weight.length);
      expect(sliceArea(fast)).toBeCloseTo(sliceArea(full), 9);
    }
    expect(slabs.candidates(5).length).toBe(0);
  });
});
