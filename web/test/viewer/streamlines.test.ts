// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { traceStreamline } from '../../src/viewer/fields/streamlines.ts';
import { TetLocator } from '../../src/viewer/fields/tet-locator.ts';
import { boxTets } from './box-tets.ts';

describe('streamlines on a tetrahedral field', () => {
  const mesh = boxTets([-1, -1, -0.5], [1, 1, 0.5], [10, 10, 4]);
  const nv = mesh.positions.length / 3;
  const locator = new TetLocator(mesh.positions, mesh.tets);

  it('follow circles in a rotating field v = (−y, x, 0) and close on themselves', () => {
    // A linear field: the mesh's P1 interpolation is exact, so only the integrator's error remains.
    const vectors = new Float32Array(3 * nv);
    for (let v = 0; v < nv; v++) {
      vectors[3 * v] = -mesh.positions[3 * v + 1]!;
      vectors[3 * v + 1] = mesh.positions[3 * v]!;
    }
    for (const radius of [0.3, 0.6, 0.9]) {
      const line = traceStreamline(locator, vectors, [radius, 0, 0.1], {
        step: 0.02,
        maxSteps: 2000,
        minMagnitude: 1e-9,
      });
      expect(line).not.toBeNull();
      let worst = 0;
      for (let i = 0; i < line!.points.length; i += 3) {
        const r = Math.hypot(line!.points[i]!, line!.points[i + 1]!);
        worst = Math.max(worst, Math.abs(r - radius), Math.abs(line!.points[i + 2]! - 0.1));
      }
      console.log(
        `rotating field, r = ${radius}: max deviation from the circle ${worst.toExponential(2)}, ${line!.points.length / 3} points`,
      );
      expect(worst).toBeLessThan(1e-4);
      expect(line!.closed).toBe(true);
      // The closed loop's length is the circumference.
      let length = 0;
      for (let i = 3; i < line!.points.length; i += 3) {
        length += Math.hypot(
          line!.points[i]! - line!.points[i - 3]!,
          line!.points[i + 1]! - line!.points[i - 2]!,
          line!.points[i + 2]! - line!.points[i - 1]!,
        );
      }
      expect(Math.abs(length - 2 * Math.PI * radius) / (2 * Math.PI * radius)).toBeLessThan(0.01);
    }
  });

  it('stops at the mesh boundary in a uniform field', () => {
    const vectors = new Float32Array(3 * nv);
    for (let v = 0; v < nv; v++) vectors[3 * v] = 1;
    const line = traceStreamline(locator, vectors, [0, 0.2, 0], {
      step: 0.05,
      maxSteps: 1000,
      minMagnitude: 1e-9,
    });
    expect(line!.closed).toBe(false);
    const xs = line!.points.filter((_, i) => i % 3 === 0);
    expect(Math.min(...xs)).toBeLessThan(-0.94);
    expect(Math.max(...xs)).toBeGreaterThan(0.94);
    for (let i = 1; i < line!.points.length; i += 3) expect(line!.points[i]).toBeCloseTo(0.2, 5);
  });

  it('locates points and interpolates linear fields exactly', () => {
    const values = new Float32Array(nv);
    for (let v = 0; v < nv; v++) values[v] = 3 * mesh.positions[3 * v]! - mesh.positions[3 * v + 2]!;
    expect(locator.scalarAt(values, 0.123, -0.456, 0.2)).toBeCloseTo(3 * 0.123 - 0.2, 5);
    expect(Number.isNaN(locator.scalarAt(values, 2, 0, 0))).toBe(true);
  });
});
