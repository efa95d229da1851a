import { MEMORY_MODEL } from '@fieldline/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RunEstimate } from '../../src/environment/run/RunEstimate.tsx';
import { createJobControls, EnvironmentContext } from '../../src/environment/state/EnvironmentContext.tsx';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { FakeServer, makeDeps, tinyVolume } from './fakes.ts';

afterEach(cleanup);

/**
 * qa32: a 27-unknown model's estimate said ≈ 1.0 GB, read as what the model needs. The GB is the engine's
 * address space with its libraries loaded (what the job's memory limit counts; a small job measured
 * 0.87–1.14 GB of it, 132–181 MB resident), so the estimate now says what it is made of.
 */
describe('the run estimate beside Run Analysis', () => {
  it('says how much of the memory is the solver’s libraries and how much the model', () => {
    const { deps, store } = makeDeps(new FakeServer());
    store.set({ model: { fileName: 'v.json', format: 'json', mesh: tinyVolume, unitsEditable: false } });
    render(
      <EnvironmentContext.Provider
        value={{ store, deps, bridge: new ViewerBridge(window, '*'), jobs: createJobControls() }}
      >
        <RunEstimate />
      </EnvironmentContext.Provider>,
    );
    // the estimate itself is unchanged: the server checks the same figure against the job's limit
    expect(screen.getByTestId('run-estimate').textContent).toBe('≈ 5 unknowns, ≈ 1.0 GB · direct solver');
    expect(MEMORY_MODEL.baseBytes).toBe(1e9);
    expect(screen.getByTestId('run-estimate-baseline').textContent).toBe(
      "Includes ≈\u00a01.0\u00a0GB reserved by the solver's libraries (≈\u00a0180\u00a0MB of it in use); this model adds ≈\u00a01\u00a0kB.",
    );
  });
});
