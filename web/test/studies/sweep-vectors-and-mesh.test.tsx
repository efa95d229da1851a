import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AnalysisConfigForm } from '../../src/environment/config/AnalysisConfigForm.tsx';
import { MeshSizeControls } from '../../src/environment/meshing/MeshSizeControls.tsx';
import { createJobControls, EnvironmentContext } from '../../src/environment/state/EnvironmentContext.tsx';
import type { EnvironmentState } from '../../src/environment/state/environment-state.ts';
import { studyConfigOf, sweepConfigOf } from '../../src/environment/studies/study-config.ts';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { FakeServer, makeDeps, tinyVolume } from '../environment/fakes.ts';

afterEach(cleanup);

function renderInEnvironment(node: React.ReactNode) {
  const { deps, store } = makeDeps(new FakeServer());
  render(
    <EnvironmentContext.Provider
      value={{ store, deps, bridge: new ViewerBridge(window, '*'), jobs: createJobControls() }}
    >
      {node}
    </EnvironmentContext.Provider>,
  );
  return store;
}

const meshOptions = (store: { get: () => EnvironmentState }) => store.get().meshing.options;

describe('Sweep on vector inputs (TripleInput)', () => {
  it('sweeps each component of a vector on its own: εr z is anisotropicMaterials[0]…[2]', () => {
    const store = renderInEnvironment(<AnalysisConfigForm />);
    fireEvent.click(screen.getByTestId('physics-em'));
    const head = screen.getByTestId('group-materials').querySelector('button.section-head');
    if (head) fireEvent.click(head);
    fireEvent.click(screen.getByLabelText('Anisotropic materials'));
    fireEvent.click(screen.getByText('+ Add anisotropic material'));
    const form = store.get().form;
    fireEvent.click(screen.getByRole('button', { name: 'Sweep εr z' }));
    expect(store.get().studySweep).toEqual({
      seq: 1,
      path: 'anisotropicMaterials[0].permittivity[2]',
      note: undefined,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Sweep εr x' }));
    expect(store.get().studySweep).toMatchObject({ seq: 2, path: 'anisotropicMaterials[0].permittivity[0]' });
    fireEvent.click(screen.getByRole('button', { name: 'Sweep μr y' }));
    expect(store.get().studySweep?.path).toBe('anisotropicMaterials[0].permeability[1]');
    // the probes ran on scratch copies: the form is untouched
    expect(store.get().form).toBe(form);
  });

  it('shows no Sweep outside the analysis form (a vector in a card without the action)', () => {
    renderInEnvironment(<MeshSizeControls />);
    expect(screen.queryByRole('button', { name: /^Sweep / })).toBeNull();
  });
});

describe('Sweep on the mesh settings (meshMaxSize and friends)', () => {
  it('maps each mesh setting to its study parameter', () => {
    const store = renderInEnvironment(<MeshSizeControls forStudies />);
    fireEvent.change(screen.getByTestId('mesh-max-size'), { target: { value: '2.5' } });
    fireEvent.change(screen.getByTestId('mesh-grading'), { target: { value: '0.4' } });
    expect(meshOptions(store)).toMatchObject({ maxElementSize: 2.5, grading: 0.4 });
    fireEvent.click(screen.getByTestId('mesh-max-size-sweep'));
    expect(store.get().studySweep).toEqual({ seq: 1, path: 'meshMaxSize', note: undefined });
    fireEvent.click(screen.getByTestId('mesh-grading-sweep'));
    expect(store.get().studySweep?.path).toBe('meshGrading');
    // the probe changed nothing
    expect(meshOptions(store)).toMatchObject({ maxElementSize: 2.5, grading: 0.4 });
  });

  it('says so when the size is blank (automatic): there is no number to sweep from', () => {
    const store = renderInEnvironment(<MeshSizeControls forStudies />);
    fireEvent.click(screen.getByTestId('mesh-min-size-sweep'));
    expect(store.get().studySweep).toMatchObject({ path: null });
    expect(store.get().studySweep?.note).toMatch(/^Min element size \(m\) is blank/);
  });
});

describe('the config a sweep sends (meshing options)', () => {
  const state = (withVolume: boolean) => {
    const { store } = makeDeps(new FakeServer());
    store.set((s) => ({
      model: {
        fileName: 'part.step',
        format: 'step',
        mesh: withVolume ? { ...tinyVolume, units: 'mm' } : { ...tinyVolume, tetrahedra: [], units: 'mm' },
        unitsEditable: false,
        uploadId: 'u1',
      },
      meshing: {
        ...s.meshing,
        options: {
          maxElementSize: 3,
          minElementSize: 0.2,
          elementsPerCircle: 18,
          grading: 0.5,
          curvatureRefinement: false,
          algorithm: 'netgen',
          repair: 'none',
        },
      },
    }));
    return store.get();
  };
  const meshKeys = {
    meshMaxSize: 3,
    meshMinSize: 0.2,
    meshElementsPerCircle: 18,
    meshGrading: 0.5,
    meshCurvatureRefinement: false,
    meshAlgorithm: 'netgen',
    meshRepair: 'none',
  };

  it('carries every meshing option when a mesh setting is swept', () => {
    const config = sweepConfigOf(state(true), ['frequency', 'meshMaxSize']);
    expect(config).toMatchObject(meshKeys);
    expect(config.analysisType).toBe(studyConfigOf(state(true)).analysisType);
  });

  it('carries them when there is no volume mesh (every point meshes)', () => {
    expect(sweepConfigOf(state(false), ['frequency'])).toMatchObject(meshKeys);
  });

  it('leaves them out when the points run on the given mesh', () => {
    const config = sweepConfigOf(state(true), ['frequency']);
    for (const key of Object.keys(meshKeys)) expect(config).not.toHaveProperty(key);
  });
});
