import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FeaResults } from '../../src/environment/results/FeaResults.tsx';
import { magneticEnergyNeedsAir } from '../../src/environment/results/magnetic-closure.ts';
import { createJobControls, EnvironmentContext } from '../../src/environment/state/EnvironmentContext.tsx';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { loadFile } from '../../src/environment/workflows/load-file.ts';
import { completedResults, FakeServer, makeDeps } from './fakes.ts';

afterEach(cleanup);

// qa29: the copper bar's "Magnetic energy 3.216 J" (58 kA, no air) depends on the n×A = 0 closure of
// docs/em-static.md; the panel now says so beside the value, and only when no body is an insulator.
const dc = (config: Record<string, unknown>, regions = ['bar']) => ({
  ...completedResults,
  region_names: regions,
  tetrahedron_regions: completedResults.tetrahedra.map(() => 0),
  quantities: { resistance_ohm: 1.724e-5, magnetic_energy_J: 3.216 },
  analysis_config: { analysisType: 'em', frequency: 0, ...config },
});

describe('the magnetic energy of a model without air', () => {
  it('is flagged when every body conducts, resolved as the engine resolves the materials', () => {
    const copper = { defaultConductivity: 5.8e7 };
    expect(magneticEnergyNeedsAir(dc(copper), dc(copper).analysis_config)).toBe(true);
    // a default insulator with the bar assigned copper by index, by name, and by anisotropic entry
    const byIndex = { defaultConductivity: 0, bodyMaterials: [{ region: 0, conductivity: 5.8e7 }] };
    expect(magneticEnergyNeedsAir(dc(byIndex), byIndex)).toBe(true);
    const byName = { defaultConductivity: 0, bodyMaterials: [{ region: 'bar', conductivity: 5.8e7 }] };
    expect(magneticEnergyNeedsAir(dc(byName), byName)).toBe(true);
    const aniso = {
      useAnisotropicMaterials: true,
      anisotropicMaterials: [{ id: '0', conductivity: [0, 0, 1e6] }],
    };
    expect(magneticEnergyNeedsAir(dc(aniso), aniso)).toBe(true);
  });

  it('is not flagged with an air region, without a magnetic energy, or without the config', () => {
    const withAir = { defaultConductivity: 0, bodyMaterials: [{ region: 'bar', conductivity: 5.8e7 }] };
    const twoBodies = dc(withAir, ['bar', 'air']);
    twoBodies.tetrahedron_regions = [0, 1];
    expect(magneticEnergyNeedsAir(twoBodies, withAir)).toBe(false);
    expect(magneticEnergyNeedsAir(completedResults, { defaultConductivity: 5.8e7 })).toBe(false);
    expect(magneticEnergyNeedsAir(dc({}), null)).toBe(false);
  });

  it('shows the caveat, with its link to the docs, right under the value', async () => {
    const { deps } = makeDeps(new FakeServer());
    const file = (name: string, content: object) => new File([JSON.stringify(content)], name);
    const services = {
      store: deps.store,
      deps,
      bridge: new ViewerBridge(window, '*'),
      jobs: createJobControls(),
    };
    await loadFile(file('bar.json', dc({ defaultConductivity: 5.8e7 })), deps);
    const { unmount } = render(
      <EnvironmentContext.Provider value={services}>
        <FeaResults />
      </EnvironmentContext.Provider>,
    );
    const value = screen.getByTestId('quantity-magnetic_energy_J');
    expect(value.textContent).toBe('Magnetic energy3.216 J');
    const note = screen.getByTestId('magnetic-closure-note');
    expect(value.nextElementSibling).toBe(note);
    expect(note.textContent).toContain('n×A = 0');
    expect(note.querySelector('a')?.getAttribute('href')).toBe('/#/docs?section=magnetic-closure');
    unmount();

    const air = { defaultConductivity: 0, bodyMaterials: [{ region: 0, conductivity: 5.8e7 }] };
    await loadFile(
      file('bar-in-air.json', { ...dc(air, ['bar', 'air']), tetrahedron_regions: [0, 1] }),
      deps,
    );
    render(
      <EnvironmentContext.Provider value={services}>
        <FeaResults />
      </EnvironmentContext.Provider>,
    );
    expect(screen.getByTestId('quantity-magnetic_energy_J')).toBeTruthy();
    expect(screen.queryByTestId('magnetic-closure-note')).toBeNull();
  });
});

// qa31: one terminal at 0 V (the other had no faces) ran to "Stored energy 0 J" with no word why.
describe('an electrostatic run with nothing driving it', () => {
  it('says the field is zero and why, under the stored energy; not when there is energy', async () => {
    const { deps } = makeDeps(new FakeServer());
    const services = {
      store: deps.store,
      deps,
      bridge: new ViewerBridge(window, '*'),
      jobs: createJobControls(),
    };
    const run = (energy: number) => ({
      ...completedResults,
      quantities: { stored_energy_J: energy },
      analysis_config: { analysisType: 'em', frequency: 0 },
    });
    await loadFile(new File([JSON.stringify(run(0))], 'zero.json'), deps);
    const { unmount } = render(
      <EnvironmentContext.Provider value={services}>
        <FeaResults />
      </EnvironmentContext.Provider>,
    );
    const note = screen.getByTestId('zero-field-note');
    expect(screen.getByTestId('quantity-stored_energy_J').nextElementSibling).toBe(note);
    expect(note.textContent).toContain('every terminal is at the same potential');
    unmount();
    await loadFile(new File([JSON.stringify(run(1.8e-13))], 'driven.json'), deps);
    render(
      <EnvironmentContext.Provider value={services}>
        <FeaResults />
      </EnvironmentContext.Provider>,
    );
    expect(screen.queryByTestId('zero-field-note')).toBeNull();
  });
});
