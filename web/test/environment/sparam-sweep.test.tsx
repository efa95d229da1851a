import { AnalysisConfig } from '@fieldline/contracts';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAnalysisForm } from '../../src/environment/config/analysis-form.ts';
import { SParametersGroup } from '../../src/environment/config/groups/SParametersGroup.tsx';
import { toBackendConfig } from '../../src/environment/config/to-backend-config.ts';
import { sweepSummary } from '../../src/environment/results/sweep-summary.ts';
import { createJobControls, EnvironmentContext } from '../../src/environment/state/EnvironmentContext.tsx';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { FakeServer, makeDeps } from './fakes.ts';

afterEach(cleanup);

function showGroup() {
  const { deps, store } = makeDeps(new FakeServer());
  store.set((s) => ({ form: { ...s.form, calculateSParameters: true } }));
  const bridge = new ViewerBridge(window, window.location.origin);
  render(
    <EnvironmentContext.Provider value={{ store: deps.store, deps, bridge, jobs: createJobControls() }}>
      <SParametersGroup />
    </EnvironmentContext.Provider>,
  );
  fireEvent.click(screen.getByText('S-parameters'));
  return store;
}

describe('S-parameter sweep type (adaptive fast sweep)', () => {
  it('defaults to the uniform sweep; choosing adaptive shows its tolerance and both reach the config', () => {
    const store = showGroup();
    const select = screen.getByTestId('sparam-sweep-type') as HTMLSelectElement;
    expect(select.value).toBe('uniform');
    expect(screen.queryByTestId('sparam-adaptive-tolerance')).toBeNull();
    expect(toBackendConfig(store.get().form).sParamSweepType).toBe('uniform');

    fireEvent.change(select, { target: { value: 'adaptive' } });
    const tol = screen.getByTestId('sparam-adaptive-tolerance') as HTMLInputElement;
    expect(tol.value).toBe('0.001');
    fireEvent.change(tol, { target: { value: '1e-5' } });
    const config = AnalysisConfig.parse(toBackendConfig(store.get().form));
    expect(config.sParamSweepType).toBe('adaptive');
    expect(config.sParamAdaptiveTolerance).toBe(1e-5);
  });

  it('clamps the tolerance into 1e-8…0.1 and falls back to 1e-3 for unusable text', () => {
    const form = { ...defaultAnalysisForm(), sParamSweepType: 'adaptive' as const };
    const tol = (text: string) =>
      toBackendConfig({ ...form, sParamAdaptiveTolerance: text }).sParamAdaptiveTolerance;
    expect([tol('5'), tol('1e-12'), tol(''), tol('abc'), tol('-1'), tol('2e-4')]).toEqual([
      0.1, 1e-8, 1e-3, 1e-3, 1e-3, 2e-4,
    ]);
  });

  it('the contract refuses an unknown sweep type or a tolerance out of bounds, and defaults to uniform', () => {
    expect(AnalysisConfig.parse({}).sParamSweepType).toBe('uniform');
    expect(AnalysisConfig.parse({}).sParamAdaptiveTolerance).toBe(1e-3);
    expect(AnalysisConfig.safeParse({ sParamSweepType: 'fast' }).success).toBe(false);
    expect(AnalysisConfig.safeParse({ sParamAdaptiveTolerance: 0.5 }).success).toBe(false);
    expect(AnalysisConfig.safeParse({ sParamAdaptiveTolerance: 0 }).success).toBe(false);
  });
});

describe('sweepSummary (solver_info.frequency_sweep)', () => {
  it('states the adaptive sweep’s full solves, points and error estimate, and a fallback', () => {
    const adaptive = {
      frequency_points: 101,
      frequency_sweep: { type: 'adaptive', full_solves: 6, error_estimate: 2.24e-5, converged: true },
    };
    expect(sweepSummary(adaptive)).toBe('adaptive, 6 full solves for 101 points, error estimate 2.2e-5');
    const stopped = {
      frequency_sweep: { type: 'adaptive', full_solves: 20, error_estimate: 0.02, converged: false },
    };
    expect(sweepSummary(stopped)).toBe('adaptive, 20 full solves, error estimate 2.0e-2, not converged');
    const fallback = { frequency_sweep: { type: 'uniform', requested: 'adaptive', full_solves: 6 } };
    expect(sweepSummary(fallback)).toBe('uniform (adaptive not possible), 6 full solves');
    expect(sweepSummary({ frequency_sweep: { type: 'uniform', full_solves: 101 } })).toBeNull();
    expect(sweepSummary({})).toBeNull();
  });
});
