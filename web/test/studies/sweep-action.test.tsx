import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnalysisConfigForm } from '../../src/environment/config/AnalysisConfigForm.tsx';
import { createJobControls, EnvironmentContext } from '../../src/environment/state/EnvironmentContext.tsx';
import { changedPaths, probeValues } from '../../src/environment/studies/sweep-probe.ts';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { FakeServer, makeDeps } from '../environment/fakes.ts';

afterEach(cleanup);

function renderForm() {
  const { deps, store } = makeDeps(new FakeServer());
  render(
    <EnvironmentContext.Provider
      value={{ store, deps, bridge: new ViewerBridge(window, '*'), jobs: createJobControls() }}
    >
      <AnalysisConfigForm />
    </EnvironmentContext.Provider>,
  );
  return store;
}

describe('the Sweep action beside a numeric input of the form', () => {
  it('finds the config number the input sets, without changing the form or telling anyone', () => {
    const store = renderForm();
    fireEvent.click(screen.getByTestId('physics-structural'));
    fireEvent.click(screen.getByTestId('add-load'));
    fireEvent.change(screen.getByTestId('load-0-faces'), { target: { value: '3' } });
    fireEvent.change(screen.getByTestId('load-0-fz'), { target: { value: '-250' } });
    const form = store.get().form;
    const listener = vi.fn();
    store.subscribe(listener);
    fireEvent.click(screen.getByTestId('load-0-fz-sweep'));
    expect(store.get().studySweep).toEqual({ seq: 1, path: 'forceLoads[0].force[2]', note: undefined });
    // the probe ran on a scratch copy: the form is the same object, told once (the request itself)
    expect(store.get().form).toBe(form);
    expect(listener).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByTestId('load-0-fx-sweep'));
    expect(store.get().studySweep).toMatchObject({ seq: 2, path: 'forceLoads[0].force[0]' });
  });

  it('says why when the input sets no number yet (a load without faces is not sent)', () => {
    const store = renderForm();
    fireEvent.click(screen.getByTestId('physics-structural'));
    fireEvent.click(screen.getByTestId('add-load'));
    fireEvent.click(screen.getByTestId('load-0-fz-sweep'));
    expect(store.get().studySweep).toMatchObject({ seq: 1, path: null });
    expect(store.get().studySweep?.note).toMatch(/^Fz sets no number of the configuration on its own yet/);
  });

  it('probe values and changed paths', () => {
    expect(probeValues(undefined)).toEqual([0.5, 1, -1]);
    expect(probeValues(10)).toEqual([13.700000000000001, 11, 9, 5]);
    expect(changedPaths({ a: [1, 2], b: { c: 3 } }, { a: [1, 5], b: { c: 3 }, d: 4 })).toEqual(['a[1]']);
  });
});
