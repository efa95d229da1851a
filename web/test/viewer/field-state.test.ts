import type { ViewerField } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import { defaultSelection, FieldState, selectionForMode } from '../../src/viewer/field-state.ts';

const f32 = (v: number[]) => new Float32Array(v);
const field = (over: Partial<ViewerField> & Pick<ViewerField, 'kind' | 'values'>): ViewerField => ({
  label: 'F',
  unit: 'u',
  location: 'vertex',
  ...over,
});

describe('FieldState over the named-field catalogue', () => {
  const temperature = field({
    label: 'Temperature',
    unit: 'K',
    kind: 'scalar',
    values: f32([300, 310, 320, 330]),
  });
  const displacement = field({
    label: 'Displacement',
    unit: 'm',
    kind: 'vector',
    role: 'deformation',
    values: f32([3, 4, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0]),
  });

  it('colours a scalar by its values with its own label and unit', () => {
    const state = new FieldState({ temperature, displacement }, undefined, 4);
    const view = state.view({ name: 'temperature', display: 'magnitude' }, 0);
    expect(view).toMatchObject({ label: 'Temperature', units: 'K', showVectors: false, vectors: null });
    expect(Array.from(view.magnitude!)).toEqual([300, 310, 320, 330]);
    expect(state.autoRange({ name: 'temperature', display: 'magnitude' }, false)).toMatchObject({
      min: 300,
      max: 330,
    });
  });

  it('shows a vector as magnitude, one component, or arrows; finds the deformation field', () => {
    const state = new FieldState({ temperature, displacement }, undefined, 4);
    expect(Array.from(state.view({ name: 'displacement', display: 'magnitude' }, 0).magnitude!)).toEqual([
      5, 0, 1, 2,
    ]);
    const uy = state.view({ name: 'displacement', display: 'component', component: 1 }, 0);
    expect(uy.label).toBe('Displacement y');
    expect(Array.from(uy.magnitude!)).toEqual([4, 0, 0, 2]);
    expect(state.view({ name: 'displacement', display: 'arrows' }, 0).showVectors).toBe(true);
    expect(state.deformationField).toBe('displacement');
    expect(state.vectorsAt('displacement', 0)).toBe(displacement.values);
  });

  it('averages a cell field onto the vertices of its tetrahedra', () => {
    const stress = field({
      label: 'Stress',
      unit: 'Pa',
      kind: 'tensor',
      location: 'cell',
      values: f32([1, 2, 2, 0, 0, 0, 3, 0, 0, 0, 0, 4]),
    });
    // two tets: 0-1-2-3 and 1-2-3-4
    const tets = new Uint32Array([0, 1, 2, 3, 1, 2, 3, 4]);
    const state = new FieldState({ stress }, undefined, 5, tets);
    const xx = state.view({ name: 'stress', display: 'component', component: 0 }, 0);
    expect(Array.from(xx.magnitude!)).toEqual([1, 2, 2, 2, 3]);
    // Frobenius norm of a symmetric tensor counts the off-diagonal entries twice: √(9 + 2·16) for tet 2
    const norm = state.view({ name: 'stress', display: 'magnitude' }, 0);
    expect(norm.magnitude![4]).toBeCloseTo(Math.sqrt(9 + 32), 5);
  });

  it('takes a frame’s own values, and a frame of magnitudes only for a vector field', () => {
    const e = field({
      label: 'Electric field',
      unit: 'V/m',
      kind: 'vector',
      values: f32([1, 0, 0, 0, 1, 0]),
    });
    const state = new FieldState(
      { electric_field: e },
      { axis: 'time', frames: [{ electric_field: f32([7, 8]) }] },
      2,
    );
    const view = state.view({ name: 'electric_field', display: 'arrows' }, 0);
    expect(Array.from(view.magnitude!)).toEqual([7, 8]);
    expect(view.label).toBe('|Electric field|');
    expect(view.vectors).toBeNull();
  });

  it('uses the peak amplitude of a phasor for its magnitude', () => {
    const e = field({ kind: 'vector', values: f32([3, 0, 0]), imag: f32([0, 4, 0]) });
    expect(
      new FieldState({ e }, undefined, 1).view({ name: 'e', display: 'magnitude' }, 0).magnitude![0],
    ).toBe(5);
  });

  it('keeps the spec’s field modes as an alias and picks a sensible default', () => {
    expect(selectionForMode(0)).toEqual({ name: 'electric_field', display: 'arrows' });
    expect(selectionForMode(3)).toEqual({ name: 'magnetic_field', display: 'magnitude' });
    const e = field({ kind: 'vector', values: f32([1, 0, 0]) });
    // the catalogue's order decides: an EM result leads with its electric field (the spec's mode 0)
    expect(defaultSelection({ electric_field: e, potential: temperature })).toEqual({
      name: 'electric_field',
      display: 'arrows',
    });
    expect(defaultSelection({ temperature, electric_field: e })).toEqual({
      name: 'temperature',
      display: 'magnitude',
    });
    expect(defaultSelection({ temperature })).toEqual({ name: 'temperature', display: 'magnitude' });
    expect(defaultSelection({})).toBeNull();
  });
});

describe('legend ticks', () => {
  it('print as many decimals as the spacing needs, and °C beside kelvin', async () => {
    const { tickLabel } = await import('../../src/viewer/ui/legend.ts');
    expect(tickLabel(360.07, 1, 'K', 0.002)).toBe('360.070 (86.920)');
    expect(tickLabel(300, 1, 'K', 20)).toBe('300 (26.9)');
    expect(tickLabel(2.5e6, 1e6, 'Pa', 0.5e6)).toBe('2.5');
    expect(tickLabel(40e6, 1e6, 'Pa', 10e6)).toBe('40');
  });
});
