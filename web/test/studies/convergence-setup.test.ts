import { describe, expect, it } from 'vitest';
import {
  convergenceSizes,
  defaultConvergence,
  toConvergenceSpec,
} from '../../src/environment/studies/convergence-setup.ts';

describe('the convergence study in the Study card', () => {
  it('starts from the configured mesh size, else a tenth of the model diagonal', () => {
    expect(defaultConvergence('capacitance_F', 0.6, [3, 4, 12]).startSize).toBe(0.6);
    expect(defaultConvergence('capacitance_F', undefined, [3, 4, 12])).toEqual({
      output: 'capacitance_F',
      tolerancePercent: 1,
      startSize: 1.3,
      ratio: 1.5,
      maxPoints: 5,
    });
  });

  it('sends the tolerance as a fraction and keeps the point count within the contract', () => {
    const form = { output: 'max_von_mises_Pa', tolerancePercent: 0.5, startSize: 2, ratio: 2, maxPoints: 40 };
    expect(toConvergenceSpec(form)).toEqual({
      output: 'max_von_mises_Pa',
      tolerance: 0.005,
      startSize: 2,
      ratio: 2,
      maxPoints: 12,
    });
    expect(convergenceSizes({ ...form, maxPoints: 4 })).toEqual([2, 1, 0.5, 0.25]);
  });
});
