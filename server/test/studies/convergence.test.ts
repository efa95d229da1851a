import { describe, expect, it } from 'vitest';
import { convergenceReport, convergenceSize } from '../../src/studies/convergence.ts';

const spec = { output: 'q', tolerance: 1e-3, startSize: 1, ratio: 2, maxPoints: 6 };

describe('convergence report (Richardson extrapolation, grid convergence index)', () => {
  it('recovers the exact value and order of f = f* + C·h^p, and uses Fs = 1.25 once a fourth point confirms p', () => {
    const sizes = [0, 1, 2, 3].map((k) => convergenceSize(spec, k));
    expect(sizes).toEqual([1, 0.5, 0.25, 0.125]);
    const values = sizes.map((h) => 3 + 0.7 * h ** 2);
    const three = convergenceReport(spec, values.slice(0, 3), sizes.slice(0, 3), false);
    expect(three.extrapolated).toBeCloseTo(3, 12);
    expect(three.observed_order).toBeCloseTo(2, 12);
    expect(three.safety_factor).toBe(3);
    const four = convergenceReport(spec, values, sizes, true);
    expect(four.safety_factor).toBe(1.25);
    expect(four.error_estimate).toBeCloseTo(1.25 * 0.7 * 0.125 ** 2, 12);
    expect(four.last_change).toBeCloseTo((values[2]! - values[3]!) / values[3]!, 12);
    expect(four.converged).toBe(false);
    expect(four.message).toContain('Not converged after 4 points');
  });

  it('gives no extrapolation for oscillating values, and the last change as the error', () => {
    const r = convergenceReport(spec, [1, 1.2, 1.1], [1, 0.5, 0.25], true);
    expect(r.extrapolated).toBeNull();
    expect(r.error_estimate).toBeCloseTo(0.1, 12);
    expect(r.converged).toBe(false);
    const c = convergenceReport(spec, [1, 1.0001], [1, 0.5], true);
    expect(c.converged).toBe(true);
    expect(c.message).toMatch(/^Converged: q changed by 0.01 %/);
  });
});
