import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createHashRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../src/auth/index.ts';
import { AnalysisConfigForm } from '../../src/environment/config/AnalysisConfigForm.tsx';
import { toBackendConfig } from '../../src/environment/config/to-backend-config.ts';
import { EnvironmentPage } from '../../src/environment/EnvironmentPage.tsx';
import { isUsable, snapshotWork } from '../../src/environment/persistence/saved-work.ts';
import { RawJsonDrawer } from '../../src/environment/raw-json/RawJsonDrawer.tsx';
import { createJobControls, EnvironmentContext } from '../../src/environment/state/EnvironmentContext.tsx';
import { initialEnvironmentState } from '../../src/environment/state/environment-state.ts';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { FakeServer, makeDeps, tinyVolume } from './fakes.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The page's calls (auth check, health) answered as a server with a guest session would. */
function stubServer() {
  vi.stubGlobal('fetch', async (input: string) =>
    input.startsWith('/api/auth/check')
      ? new Response(JSON.stringify({ authenticated: false, user: null }))
      : new Response('{}', { status: 404 }),
  );
}

function renderEnvironment() {
  stubServer();
  window.location.hash = '#/environment';
  const router = createHashRouter([
    { path: '/', element: <p>home</p> },
    { path: '/environment', element: <EnvironmentPage /> },
  ]);
  return render(
    <AuthProvider>
      <RouterProvider router={router} />
    </AuthProvider>,
  );
}

describe('environment page', () => {
  it('renders the layout of spec 001 §2', () => {
    renderEnvironment();
    expect(screen.getByText('FEA Configuration')).toBeTruthy();
    expect(screen.getByText('Field Visualization')).toBeTruthy();
    expect(screen.getByTestId('status-chip').textContent).toBe('No model loaded');
    expect(screen.getByTestId('viewer-frame').getAttribute('src')).toBe('/viewer.html');
    expect(screen.getByText('Back to Home')).toBeTruthy();
    fireEvent.click(screen.getByTestId('mode-section'));
    expect(screen.getByText('Wheel scrubs')).toBeTruthy();
    expect(screen.getByTestId('slice-lock')).toBeTruthy();
    expect(screen.getByTestId('section-offset')).toBeTruthy();
    fireEvent.click(screen.getByTestId('toggle-left'));
    expect(screen.queryByText('FEA Configuration')).toBeNull();
  });

  it('alerts No analysis results available yet. when Raw JSON opens without results', () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    renderEnvironment();
    fireEvent.click(screen.getByTestId('raw-json-button'));
    expect(alert).toHaveBeenCalledWith('No analysis results available yet.');
    expect(screen.queryByTestId('raw-json-drawer')).toBeNull();
    alert.mockRestore();
  });
});

describe('solver choices', () => {
  it('offers GMRES only to the electromagnetic family: the others solve symmetric positive definite systems', () => {
    const deps = makeDeps(new FakeServer()).deps;
    const services = {
      store: deps.store,
      deps,
      bridge: new ViewerBridge(window, '*'),
      jobs: createJobControls(),
    };
    render(
      <EnvironmentContext.Provider value={services}>
        <AnalysisConfigForm />
      </EnvironmentContext.Provider>,
    );
    const select = () => {
      if (!screen.queryByTestId('linear-solver'))
        fireEvent.click(screen.getByTestId('group-solver').querySelector('button.section-head')!);
      return screen.getByTestId('linear-solver') as HTMLSelectElement;
    };
    const solvers = () => Array.from(select().querySelectorAll('option')).map((o) => o.value);
    expect(solvers()).toContain('gmres-bddc');
    fireEvent.change(select(), { target: { value: 'gmres-bddc' } });
    for (const family of ['structural', 'thermal', 'vibration']) {
      fireEvent.click(screen.getByTestId(`physics-${family}`));
      expect(solvers()).toEqual(['auto', 'direct', 'cg-bddc', 'cg-amg']);
      // what the engine runs for a GMRES choice on these families
      expect(select().value).toBe('cg-bddc');
    }
  });
});

describe('EM materials group', () => {
  it("folds density and heat capacity away as the thermal inputs (qa29: water's values read as the model's)", () => {
    const deps = makeDeps(new FakeServer()).deps;
    const services = {
      store: deps.store,
      deps,
      bridge: new ViewerBridge(window, '*'),
      jobs: createJobControls(),
    };
    render(
      <EnvironmentContext.Provider value={services}>
        <AnalysisConfigForm />
      </EnvironmentContext.Provider>,
    );
    fireEvent.click(screen.getByTestId('group-materials').querySelector('button.section-head')!);
    const thermal = screen.getByTestId('em-thermal-inputs') as HTMLDetailsElement;
    expect(thermal.tagName).toBe('DETAILS');
    expect(thermal.open).toBe(false);
    expect(thermal.querySelector('summary')?.textContent).toBe(
      'Thermal coupling inputs (not used by the electromagnetic solvers)',
    );
    const density = screen.getByLabelText('Density') as HTMLInputElement;
    expect(thermal.contains(density)).toBe(true);
    expect(thermal.contains(screen.getByLabelText('Heat capacity'))).toBe(true);
    expect(thermal.contains(screen.getByLabelText('Conductivity'))).toBe(false);
    // still what the job is sent
    expect(density.value).toBe('1000');
    expect(toBackendConfig(deps.store.get().form)).toMatchObject({ density: 1000, heatCapacity: 4186 });
  });
});

describe('raw JSON drawer', () => {
  it('closes on Escape and renders large arrays lazily', () => {
    const onClose = vi.fn();
    const big = { vertices: Array.from({ length: 50_000 }, (_, i) => [i, i, i]) };
    render(<RawJsonDrawer data={big} onClose={onClose} />);
    fireEvent.click(screen.getByText('vertices'));
    // the vertices node itself plus its first page of 100 children
    expect(document.querySelectorAll('.json-children .json-node').length).toBe(101);
    expect(screen.getByText(/Show 100 more of 49900 remaining/)).toBeTruthy();
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    });
    expect(onClose).toHaveBeenCalled();
  });
});

describe('saved work (guest → login → back)', () => {
  it('snapshots the model and configuration and expires after a day', () => {
    const state = initialEnvironmentState();
    expect(snapshotWork(state)).toBeNull();
    const work = snapshotWork(
      { ...state, model: { fileName: 'v.json', format: 'json', mesh: tinyVolume, unitsEditable: false } },
      1000,
    );
    expect(work?.model.fileName).toBe('v.json');
    expect(isUsable(work, 1000 + 3600_000)).toBe(true);
    expect(isUsable(work, 1000 + 25 * 3600_000)).toBe(false);
  });
});
