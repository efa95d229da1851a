import { describe, expect, it } from 'vitest';
import { defaultAnalysisForm } from '../../src/environment/config/form-defaults.ts';
import { pulseResolutionWarning } from '../../src/environment/families/em/pulse-resolution.ts';

/**
 * qa31: the transient defaults (Δt = 100 ps, end 1 ns, automatic width end/15 = 66.7 ps) ran a pulse under one
 * step wide, and its frequency response showed |S11| = +9.9 dB without a word.
 */
describe('the transient pulse against the time step', () => {
  it('warns for the defaults: the automatic 66.7 ps pulse is under one 100 ps step', () => {
    const text = pulseResolutionWarning(defaultAnalysisForm());
    expect(text).toBe(
      'The pulse is 66.7 ps wide (automatic: end time / 15) but the time step is 100 ps: under one step per ' +
        'width, too few to resolve it, so its fields and frequency response are wrong. Make the time step at ' +
        'most 13.3 ps or the end time longer.',
    );
  });

  it('is quiet once the step resolves the pulse, and for the sinusoid', () => {
    const form = defaultAnalysisForm();
    expect(pulseResolutionWarning({ ...form, timeStep: '1e-11' })).toBeNull();
    expect(pulseResolutionWarning({ ...form, pulseShape: 'sinusoidal' })).toBeNull();
    const typed = pulseResolutionWarning({ ...form, timeStep: '2e-11', pulseWidth: '5e-11' });
    expect(typed).toContain('2.5 steps per width');
    expect(typed).toContain('or the pulse wider');
    expect(pulseResolutionWarning({ ...form, timeStep: 'abc' })).toBeNull();
  });
});
