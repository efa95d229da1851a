import { describe, expect, it } from 'vitest';
import { firstFlatTetrahedron } from '../src/fea/tet-volumes.ts';

describe('firstFlatTetrahedron', () => {
  const vertices = [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 1, 0], // in the plane z = 0 with 0, 1, 2
    [10, 10, 10],
  ];
  it('finds the first tetrahedron of (numerically) zero volume', () => {
    expect(firstFlatTetrahedron(vertices, [[0, 1, 2, 3]])).toBe(-1);
    expect(firstFlatTetrahedron(vertices, [[0, 2, 1, 3]])).toBe(-1); // inverted: the engine re-orients it
    expect(
      firstFlatTetrahedron(vertices, [
        [0, 1, 2, 3],
        [0, 1, 2, 4],
        [1, 2, 4, 0],
      ]),
    ).toBe(1);
  });
  it('judges flatness against the model’s extent', () => {
    // 1e-6 high over a model 10 across: volume ≈ 1.7e-7, far above 1e-14 × 10³
    const thin = [...vertices, [0.3, 0.3, 1e-6]];
    expect(firstFlatTetrahedron(thin, [[0, 1, 2, 6]])).toBe(-1);
    // 1e-13 high: below rounding at this extent
    const flat = [...vertices, [0.3, 0.3, 1e-13]];
    expect(firstFlatTetrahedron(flat, [[0, 1, 2, 6]])).toBe(0);
  });
});
