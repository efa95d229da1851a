import { describe, expect, it } from 'vitest';
import {
  numericPaths,
  outputChoices,
  pointCount,
  rowValues,
  type SweepRow,
  toParameter,
} from '../../src/environment/studies/study-setup.ts';

const row = (patch: Partial<SweepRow>): SweepRow => ({
  path: 'frequency',
  mode: 'range',
  values: '',
  from: 1,
  to: 5,
  steps: 5,
  scale: 'linear',
  ...patch,
});

describe('Study panel setup', () => {
  it('lists every number of the config by the path a study names it, leaving out face and vertex ids', () => {
    const paths = numericPaths({
      frequency: 0,
      analysisType: 'structural',
      forceLoads: [{ faces: [1, 2, 3], force: [0, 0, -100] }],
      bodyMaterials: [{ region: 0, youngsModulus: 2e11 }],
      fixedSupports: [{ faces: [4], points: [7] }],
    });
    expect(paths).toEqual([
      { path: 'frequency', value: 0 },
      { path: 'forceLoads[0].force[0]', value: 0 },
      { path: 'forceLoads[0].force[1]', value: 0 },
      { path: 'forceLoads[0].force[2]', value: -100 },
      { path: 'bodyMaterials[0].region', value: 0 },
      { path: 'bodyMaterials[0].youngsModulus', value: 2e11 },
    ]);
  });

  it('counts points as the server does (grid multiplies, zip pairs) and spaces ranges linearly or logarithmically', () => {
    expect(rowValues(row({}))).toEqual([1, 2, 3, 4, 5]);
    expect(rowValues(row({ from: 1, to: 100, steps: 3, scale: 'log' }))).toEqual([1, 10, 100]);
    expect(rowValues(row({ mode: 'values', values: '2.2, 4.4;10' }))).toEqual([2.2, 4.4, 10]);
    const two = [row({}), row({ path: 'x', mode: 'values', values: '1 2' })];
    expect(pointCount(two, 'grid')).toBe(10);
    expect(pointCount(two, 'zip')).toBe(2);
    expect(toParameter(row({ mode: 'values', values: '1,2' }))).toEqual({
      path: 'frequency',
      values: [1, 2],
    });
    expect(outputChoices('structural')).toContain('max_von_mises_Pa');
    expect(outputChoices('tetra-only')).toEqual([]);
  });
});
