import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AnalysisConfigForm } from '../../src/environment/config/AnalysisConfigForm.tsx';
import { locateProbe } from '../../src/environment/config/probe-inside.ts';
import { RunBar } from '../../src/environment/run/RunBar.tsx';
import { createJobControls, EnvironmentContext } from '../../src/environment/state/EnvironmentContext.tsx';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { FakeServer, makeDeps } from './fakes.ts';

afterEach(cleanup);

/**
 * qa32: a probe outside the model was only mentioned after the run (in the time-domain notes), and a
 * thermal run stopped on it. The form now says so beside the probe before the run.
 */

// A hollow square tube around the z axis (x, y ∈ [−2, 2] minus [−1, 1]), z ∈ [0, 10], in mm: four slabs
// of five tetrahedra each. The bounding box's centre (0, 0, 5) is in the bore.
function tube() {
  const vertices: [number, number, number][] = [];
  const tetrahedra: number[][] = [];
  for (const [x0, x1, y0, y1] of [
    [-2, 2, 1, 2],
    [-2, 2, -2, -1],
    [-2, -1, -1, 1],
    [1, 2, -1, 1],
  ] as const) {
    const b = vertices.length;
    for (const z of [0, 10]) vertices.push([x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]);
    // a hexahedron as five tetrahedra (corners 0–3 at z = 0, 4–7 at z = 10)
    for (const t of [
      [0, 1, 3, 4],
      [1, 2, 3, 6],
      [1, 4, 5, 6],
      [3, 4, 6, 7],
      [1, 3, 4, 6],
    ])
      tetrahedra.push(t.map((i) => b + i));
  }
  const faces = [[0, 1, 2]];
  return { vertices, tetrahedra, faces, units: 'mm' };
}

describe('locateProbe', () => {
  const mesh = tube();
  it('finds a point in a wall, on a face and at a corner inside the model', () => {
    expect(locateProbe(mesh, [1.5, 0, 5])).toEqual({ kind: 'inside' });
    expect(locateProbe(mesh, [-1.5, 1.7, 9.9])).toEqual({ kind: 'inside' });
    expect(locateProbe(mesh, [2, 2, 10])).toEqual({ kind: 'inside' });
    expect(locateProbe(mesh, [1, 0.3, 0])).toEqual({ kind: 'inside' });
  });
  it('names the axis a point beyond the bounding box is beyond', () => {
    expect(locateProbe(mesh, [0, 0, 12.5])).toEqual({ kind: 'outside-box', axis: 'z', low: 0, high: 10 });
    expect(locateProbe(mesh, [-2.01, 0, 5])).toEqual({ kind: 'outside-box', axis: 'x', low: -2, high: 2 });
  });
  it('tells a point in the bore (inside the box, in no tetrahedron) from one in the wall', () => {
    expect(locateProbe(mesh, [0, 0, 5])).toEqual({ kind: 'outside-mesh' });
    expect(locateProbe(mesh, [0.99, 0.99, 5])).toEqual({ kind: 'outside-mesh' });
  });
  it('without a volume mesh only the bounding box is checked', () => {
    const surface = { vertices: mesh.vertices, tetrahedra: undefined };
    expect(locateProbe(surface, [0, 0, 5])).toEqual({ kind: 'inside' });
    expect(locateProbe(surface, [0, 0, -1])).toMatchObject({ kind: 'outside-box', axis: 'z' });
  });
});

describe('the probe rows warn before the run', () => {
  function renderForm() {
    const { deps, store } = makeDeps(new FakeServer());
    store.set({ model: { fileName: 'tube.json', format: 'json', mesh: tube(), unitsEditable: false } });
    render(
      <EnvironmentContext.Provider
        value={{ store, deps, bridge: new ViewerBridge(window, '*'), jobs: createJobControls() }}
      >
        <AnalysisConfigForm />
        <RunBar />
      </EnvironmentContext.Provider>,
    );
    return store;
  }
  const setPoint = (x: string, y: string, z: string) => {
    fireEvent.change(screen.getByLabelText('at x'), { target: { value: x } });
    fireEvent.change(screen.getByLabelText('at y'), { target: { value: y } });
    fireEvent.change(screen.getByLabelText('at z'), { target: { value: z } });
  };

  it('thermal: a probe beyond the model says where the model is and that the run leaves it out', () => {
    renderForm();
    fireEvent.click(screen.getByTestId('physics-thermal'));
    fireEvent.click(screen.getByTestId('group-thermal-transient').querySelector('button.section-head')!);
    fireEvent.click(screen.getByLabelText('Transient (temperature over time)'));
    fireEvent.click(screen.getByText('+ Add probe'));
    // a new probe starts inside the model: no warning
    expect(screen.queryByTestId('probe-0-outside')).toBeNull();
    setPoint('1.5', '0', '12.5');
    expect(screen.getByTestId('probe-0-outside').textContent).toBe(
      'Outside the model: the model spans z 0 to 10\u00a0mm. The run leaves this probe out.',
    );
    setPoint('0', '0', '5');
    expect(screen.getByTestId('probe-0-outside').textContent).toContain(
      'within its bounding box but in no element',
    );
    setPoint('1.5', '0', '5');
    expect(screen.queryByTestId('probe-0-outside')).toBeNull();
    // a half-typed coordinate is not judged
    setPoint('1.5', '-', '5');
    expect(screen.queryByTestId('probe-0-outside')).toBeNull();
  });

  it('EM time domain: the probe is left out, and the warning does not stop the run', () => {
    renderForm();
    fireEvent.click(screen.getByTestId('group-transient').querySelector('button.section-head')!);
    fireEvent.click(screen.getByTestId('transient'));
    fireEvent.click(screen.getByText('+ Add probe'));
    setPoint('0', '0', '5');
    expect(screen.getByTestId('probe-0-outside').textContent).toMatch(/The run leaves this probe out\.$/);
    expect((screen.getByTestId('run-analysis') as HTMLButtonElement).disabled).toBe(false);
  });
});
