import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FeaResults } from '../../src/environment/results/FeaResults.tsx';
import { processResults } from '../../src/environment/results/process-results.ts';
import { createJobControls, EnvironmentContext } from '../../src/environment/state/EnvironmentContext.tsx';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { FakeServer, makeDeps } from './fakes.ts';

afterEach(cleanup);

function showResults(solverInfo: Record<string, unknown>) {
  const result = {
    solver_info: { elements: 1, matrix_size: 4, non_zeros: 16, frequency: 0, ...solverInfo },
    computation_time: 0.5,
    vertices: [
      [0, 0, 0],
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    faces: [
      [0, 1, 2],
      [0, 1, 3],
      [0, 2, 3],
      [1, 2, 3],
    ],
    tetrahedra: [[0, 1, 2, 3]],
    field_magnitudes: { e_magnitudes: { format: 'dense', data: [1, 1, 1, 1], size: 4 } },
  };
  const { deps } = makeDeps(new FakeServer());
  deps.store.set({
    results: processResults(result),
    rawResults: result,
    analysis: { status: 'completed', progress: 100 },
  });
  render(
    <EnvironmentContext.Provider
      value={{
        store: deps.store,
        deps,
        bridge: new ViewerBridge(window, window.location.origin),
        jobs: createJobControls(),
      }}
    >
      <FeaResults />
    </EnvironmentContext.Provider>,
  );
}

describe('engine warnings and the verbose solver log in the results panel', () => {
  it('lists solver_info.warnings (a config field the analysis left out)', () => {
    const warning =
      'Grid fields (gridFieldsEnabled) are sampled by the static and quasi-static analyses only.';
    showResults({ analysis: 'fullwave', warnings: [warning] });
    expect(within(screen.getByTestId('solver-warnings')).getByText(warning)).toBeTruthy();
    expect(screen.queryByTestId('solver-log')).toBeNull();
  });

  it('shows the verbose log lines', () => {
    showResults({
      analysis: 'electrostatics',
      log: ['    0.01 s   2.0% Reading model', '    0.50 s  95.0% Writing'],
    });
    const log = screen.getByTestId('solver-log');
    expect(within(log).getByText('Solver log (2 lines)')).toBeTruthy();
    expect(log.textContent).toContain('Reading model');
  });

  it('shows nothing without warnings or log, and leaves a time-domain run’s warnings to its notes', () => {
    showResults({ analysis: 'em-time', warnings: ['left out'] });
    expect(screen.queryByTestId('solver-warnings')).toBeNull();
  });
});
