import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AnalysisConfigForm } from '../../src/environment/config/AnalysisConfigForm.tsx';
import { createJobControls, EnvironmentContext } from '../../src/environment/state/EnvironmentContext.tsx';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { FakeServer, makeDeps } from './fakes.ts';

afterEach(cleanup);

/** qa32: two wave ports had the same swatch (and mark), so port 1 could not be told from port 2. */
describe('the face lists’ swatches name each member in its own colour', () => {
  it('Port 1 orange, Port 2 crimson; Terminal 1 blue, Terminal 2 violet', () => {
    const { deps, store } = makeDeps(new FakeServer());
    render(
      <EnvironmentContext.Provider
        value={{ store, deps, bridge: new ViewerBridge(window, '*'), jobs: createJobControls() }}
      >
        <AnalysisConfigForm />
      </EnvironmentContext.Provider>,
    );
    fireEvent.click(screen.getByTestId('group-ports').querySelector('button.section-head')!);
    fireEvent.click(screen.getByTestId('use-wave-ports'));
    fireEvent.click(screen.getByTestId('add-wave-port'));
    fireEvent.click(screen.getByTestId('add-wave-port'));
    fireEvent.click(screen.getByTestId('add-dirichlet-group'));
    fireEvent.click(screen.getByTestId('add-dirichlet-group'));
    const swatch = (testId: string) => {
      const s = screen.getByTestId(`${testId}-swatch`);
      return [s.parentElement?.textContent, s.title, s.style.background];
    };
    expect(swatch('wave-port-0-faces')).toEqual([
      'Port 1 faces',
      'Port 1: marked in orange on the model',
      'rgb(255, 106, 43)',
    ]);
    expect(swatch('wave-port-1-faces')).toEqual([
      'Port 2 faces',
      'Port 2: marked in crimson on the model',
      'rgb(232, 23, 93)',
    ]);
    expect(swatch('dirichlet-group-0-faces')[1]).toBe('Terminal 1: marked in blue on the model');
    expect(swatch('dirichlet-group-1-faces')[1]).toBe('Terminal 2: marked in violet on the model');
  });
});
