import type { ViewerField, ViewerMesh } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import { summarizeCatalogue } from '../../src/results-format/field-summary.ts';
import { peakPhaseVectors } from '../../src/results-format/peak-phase.ts';
import { FieldState } from '../../src/viewer/field-state.ts';

/**
 * qa31: a harmonic response at a mode's frequency is ≈ 90° out of phase with the load; drawn from its real part
 * alone the deformed shape was the small off-resonant remainder, at "× 3820" for a 469 µm response.
 */
describe('the deformed shape of a phasor field', () => {
  // two vertices (x, y, z each): a large imaginary response along x, a small real one along y
  const re = new Float32Array([0, 1e-6, 0, 0, 1e-6, 0]);
  const im = new Float32Array([4e-4, 0, 0, 2e-4, 0, 0]);
  const harmonic: ViewerField = {
    label: 'Displacement at 3122 Hz',
    unit: 'm',
    kind: 'vector',
    location: 'vertex',
    role: 'deformation',
    values: re,
    imag: im,
  };

  it('is drawn at the phase of its largest deflection, not from the real part', () => {
    const shape = peakPhaseVectors(re, im);
    // the dominant x response, full size (sign is the swing's half, either is the shape)
    expect(Math.abs(shape[0]!)).toBeCloseTo(4e-4, 8);
    expect(Math.abs(shape[3]!)).toBeCloseTo(2e-4, 8);
    expect(Math.abs(shape[1]!)).toBeLessThan(1e-8);
    const state = new FieldState({ displacement: harmonic }, undefined, 2);
    expect(Array.from(state.deformationAt('displacement', 0)!)).toEqual(Array.from(shape));
  });

  it('the automatic exaggeration follows the drawn shape: its 0.4 mm peak at 5 % of the 60 mm part', () => {
    const mesh = {
      positions: new Float32Array([0, 0, 0, 60, 30, 36]),
      triangles: new Uint32Array(0),
      units: 'mm',
      bodies: [],
    } as unknown as ViewerMesh;
    const { deformation } = summarizeCatalogue({ mesh, fields: { displacement: harmonic } });
    // 0.05 × 0.06 m / 4e-4 m = 7.5 (the real part alone gave 0.003 / 1e-6 = 3000)
    expect(deformation?.autoScale).toBeCloseTo(7.5, 3);
  });

  it('a real field is drawn as it is', () => {
    const real = new Float32Array([1, 2, 3]);
    expect(peakPhaseVectors(real)).toBe(real);
  });
});
