import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MultiBodyBox } from '../../src/environment/meshing/MultiBodyBox.tsx';
import { FeaResults } from '../../src/environment/results/FeaResults.tsx';
import { processResults } from '../../src/environment/results/process-results.ts';
import { createJobControls, EnvironmentContext } from '../../src/environment/state/EnvironmentContext.tsx';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { loadFile } from '../../src/environment/workflows/load-file.ts';
import { completedResults, FakeServer, makeDeps, tinyVolume } from './fakes.ts';

afterEach(cleanup);

function withServices(deps: ReturnType<typeof makeDeps>['deps'], node: React.ReactNode) {
  const bridge = new ViewerBridge(window, window.location.origin);
  return (
    <EnvironmentContext.Provider value={{ store: deps.store, deps, bridge, jobs: createJobControls() }}>
      {node}
    </EnvironmentContext.Provider>
  );
}

const body = (name: string) => ({ name, vertices: tinyVolume.vertices, faces: tinyVolume.faces });

describe('multi-body models', () => {
  it('lists the bodies under the yellow notice, with visibility and a material per body', async () => {
    const { deps, store } = makeDeps(new FakeServer());
    const file = new File(
      [JSON.stringify({ format: 'multi-body', mesh_count: 2, meshes: [body('pin'), body('dielectric')] })],
      'm.json',
    );
    await loadFile(file, deps);
    expect(store.get().bodies.map((b) => b.name)).toEqual(['pin', 'dielectric']);
    render(withServices(deps, <MultiBodyBox />));
    expect(screen.getByText(/Multi-body model: 2 bodies/).className).toContain('warn');
    fireEvent.change(screen.getByLabelText('Material of dielectric'), { target: { value: 'ptfe' } });
    expect(store.get().form.bodyMaterials).toEqual({ 1: 'ptfe' });
    fireEvent.click(screen.getByLabelText('Show pin'));
    expect(store.get().bodies[0]?.visible).toBe(false);
  });
});

describe('time-domain results', () => {
  it('offer Enable Animation when they carry no frames', async () => {
    const timeDomain = {
      ...completedResults,
      time_domain_info: {
        times: [0, 1e-10, 2e-10],
        steps: 2,
        time_step: 1e-10,
        scheme: 'newmark',
        probes: [
          {
            name: 'P1',
            point: [0, 0, 0],
            e: [
              [0, 0, 0],
              [3, 4, 0],
              [0, 0, 1],
            ],
          },
        ],
        energy: { times: [0, 1e-10, 2e-10], electric: [0, 1, 2], magnetic: [0, 1, 1], total: [0, 2, 3] },
        notes: ['Signals truncated by endTime.'],
      },
    };
    expect(processResults(timeDomain)).toMatchObject({ timeDomain: true, animationFrames: 0 });
    const { deps, store } = makeDeps(new FakeServer());
    store.set({
      results: processResults(timeDomain),
      rawResults: timeDomain,
      analysis: { status: 'completed', progress: 100 },
    });
    render(withServices(deps, <FeaResults />));
    expect(screen.getByTestId('enable-animation').textContent).toBe('Enable Animation');
    // The charts come in their own chunk, fetched when results are first shown.
    expect(screen.queryByLabelText('|E| at probes (V/m)')).toBeNull();
    expect(await screen.findByLabelText('|E| at probes (V/m)')).toBeTruthy();
    expect(screen.getByLabelText('Stored energy (J)')).toBeTruthy();
    expect(screen.getByText('Signals truncated by endTime.')).toBeTruthy();
    const probeLine = screen.getByLabelText('|E| at probes (V/m)').querySelector('polyline');
    expect(probeLine?.getAttribute('points')?.split(' ')).toHaveLength(3);
    cleanup();
    const animated = { ...timeDomain, animation: { frames: 2, data: [completedResults, completedResults] } };
    store.set({ results: processResults(animated), rawResults: animated });
    render(withServices(deps, <FeaResults />));
    expect(screen.queryByTestId('enable-animation')).toBeNull();
  });
});
