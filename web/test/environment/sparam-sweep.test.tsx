import { AnalysisConfig } from '@fieldline/contracts';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultAnalysisForm } from '../../src/environment/config/form-defaults.ts';
import { toBackendConfig } from '../../src/environment/config/to-backend-config.ts';
import { portImpedanceText } from '../../src/environment/families/em/results/port-impedances.ts';
import { dbRange, SParameterPlot } from '../../src/environment/families/em/results/SParameterPlot.tsx';
import { fixed } from '../../src/environment/families/em/results/SParameterTable.tsx';
import { SParametersGroup } from '../../src/environment/families/em/SParametersGroup.tsx';
import { niceTicks, segments } from '../../src/environment/results/LineChart.tsx';
import type { SParameterSet } from '../../src/environment/results/s-parameters.ts';
import { iterativeSummary, sweepSummary } from '../../src/environment/results/sweep-summary.ts';
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

  it('iterativeSummary states the Krylov solves, their iteration range and worst residual', () => {
    const info = {
      iterative_solves: [
        { frequency: 9e9, port: 0, iterations: 35, residual: 2.1e-6 },
        { frequency: 9e9, port: 1, iterations: 41, residual: 4.46e-6 },
        { frequency: 1e10, port: 0, iterations: 38, residual: 1e-7 },
      ],
    };
    expect(iterativeSummary(info)).toBe('3 solves, 35–41 iterations each, residual ≤ 4.5e-6');
    expect(iterativeSummary({ iterative_solves: [{ iterations: 12, residual: 3e-7 }] })).toBe(
      '1 solve, 12 iterations, residual ≤ 3.0e-7',
    );
    expect(iterativeSummary({ linear_solver: 'direct (umfpack)' })).toBeNull();
  });
});

describe('S-parameter display as an RF engineer reads it', () => {
  // a matched line's S21 = e^{−jβL}: the phase falls through −180° once in this band
  const phases = [-120, -150, -178, 170, 140];
  const line: SParameterSet = {
    frequencies: [8e9, 9e9, 10e9, 11e9, 12e9],
    series: [
      { name: 'S11', re: [1e-4, 1e-4, 0, 1e-4, 1e-4], im: [0, 0, 0, 0, 0] },
      {
        name: 'S21',
        re: phases.map((d) => 0.999999 * Math.cos((d * Math.PI) / 180)),
        im: phases.map((d) => 0.999999 * Math.sin((d * Math.PI) / 180)),
      },
    ],
    portImpedances: [540.1, 540.1],
    normalization: "modal (each port's mode, 1 W)",
  };

  it('draws wrapped phase with a gap at the wrap instead of a line across the chart', () => {
    expect(segments(phases, 360)).toEqual([
      [0, 1, 2],
      [3, 4],
    ]);
    expect(segments(phases)).toEqual([[0, 1, 2, 3, 4]]);
    render(<SParameterPlot data={line} />);
    const phase = screen.getByLabelText('Phase (°)');
    expect(phase.querySelectorAll('[data-series=S21] polyline')).toHaveLength(2);
    expect(screen.getByLabelText('|S| (dB)').querySelectorAll('polyline')).toHaveLength(2);
  });

  it('puts |S| on whole 10 dB steps with 0 dB at the top, floored for a numerically zero S11', () => {
    expect(dbRange([-69.9, -1.1e-5])).toEqual([-70, 0]);
    expect(dbRange([-300, -0.1])).toEqual([-200, 0]);
    expect(dbRange([-3, 2.5])).toEqual([-10, 10]);
    expect(dbRange([])).toEqual([-40, 0]);
    render(<SParameterPlot data={line} />);
    const ticks = Array.from(
      screen.getByLabelText('|S| (dB)').querySelectorAll('text.tick'),
      (t) => t.textContent,
    );
    expect(ticks.slice(0, 3)).toEqual(['-200', '-100', '0']);
  });

  it('labels the frequency axis on round values and the phase axis every 90°', () => {
    expect(niceTicks(8.2e9, 12.4e9, 5)).toEqual([9e9, 10e9, 11e9, 12e9]);
    expect(niceTicks(0, 1, 4)).toEqual([0, 0.5, 1]);
    expect(niceTicks(-0.3, 0.3, 4)).toEqual([-0.2, 0, 0.2]);
    expect(niceTicks(1, 1, 4)).toEqual([]);
    render(<SParameterPlot data={line} />);
    const labels = (title: string) =>
      Array.from(screen.getByLabelText(title).querySelectorAll('text.tick'), (t) => t.textContent);
    expect(labels('|S| (dB)')).toEqual(['-200', '-100', '0', '8 GHz', '9 GHz', '10 GHz', '11 GHz', '12 GHz']);
    expect(labels('Phase (°)')).toEqual([
      '-180',
      '-90',
      '0',
      '90',
      '180',
      '8 GHz',
      '9 GHz',
      '10 GHz',
      '11 GHz',
      '12 GHz',
    ]);
  });

  it('shows a lossless |S21| as 0.00 dB, not −0.00', () => {
    expect([fixed(-1e-5, 2), fixed(-0.004, 2), fixed(-0.006, 2), fixed(-180, 1)]).toEqual([
      '0.00',
      '0.00',
      '-0.01',
      '-180.0',
    ]);
  });

  it('says modal port impedances are the modes’ at the middle frequency, renormalised ones the reference', () => {
    const ohm = (z: number) => `${z} Ω`;
    expect(portImpedanceText(line, ohm)).toBe(
      'Modal S-parameters, each port normalised to its own mode (1 W). Mode impedances at 10 GHz: 540.1 Ω, 540.1 Ω.',
    );
    const renormalised = { ...line, portImpedances: [50, 50], normalization: 'renormalized to 50 ohm' };
    expect(portImpedanceText(renormalised, ohm)).toBe('Reference impedances: 50 Ω, 50 Ω.');
    expect(portImpedanceText({ ...line, normalization: undefined }, ohm)).toBe(
      'Port impedances: 540.1 Ω, 540.1 Ω.',
    );
    expect(portImpedanceText({ ...line, portImpedances: undefined }, ohm)).toBeNull();
    // issue 40: a TEM port shows its line impedance V/I, named as such
    expect(
      portImpedanceText(
        { ...line, portImpedances: [48.5, 540.1], portImpedanceKinds: ['line', 'mode'] },
        ohm,
      ),
    ).toBe(
      'Modal S-parameters, each port normalised to its own mode (1 W). Port impedances at 10 GHz: 48.5 Ω (TEM line, V/I), 540.1 Ω (mode, E/H).',
    );
  });
});
