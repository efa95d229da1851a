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
 * 0.87–1.14 GB of it, 132–181 MB resident). Issue 36: a 9 k-unknown model still led with "≈ 1.0 GB", so the
 * estimate now leads with what the model needs and the note says the total and the reserve.
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
    expect(screen.getByTestId('run-estimate').textContent).toBe(
      '≈ 5 unknowns, ≈\u00a01\u00a0kB for this model · direct solver',
    );
    expect(MEMORY_MODEL.baseBytes).toBe(1e9);
    // the total is the figure the server checks against the job's limit, unchanged
    expect(screen.getByTestId('run-estimate-baseline').textContent).toBe(
      "The job counts ≈\u00a01.0\u00a0GB against its memory limit: the solver's libraries reserve ≈\u00a01.0\u00a0GB of address space whatever the model (≈\u00a0180\u00a0MB of it in use).",
    );
  });
});
