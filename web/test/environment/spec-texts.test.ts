import { describe, expect, it } from 'vitest';
import {
  type EnvironmentState,
  initialEnvironmentState,
} from '../../src/environment/state/environment-state.ts';
import { statusChip } from '../../src/environment/state/status-chip.ts';
import { RENDER_MODES, SURFACE_FIELD_MODES } from '../../src/environment/visualization/viewer-modes.ts';
import { applyResults } from '../../src/environment/workflows/apply-results.ts';
import { FakeServer, makeDeps } from './fakes.ts';

const surface = {
  fileName: 'part.stl',
  format: 'stl' as const,
  unitsEditable: true,
  mesh: { vertices: [[0, 0, 0] as [number, number, number]], faces: [[0, 0, 0]] },
};
const volume = { ...surface, mesh: { ...surface.mesh, tetrahedra: [[0, 0, 0, 0]] } };

function state(patch: Partial<EnvironmentState>): EnvironmentState {
  return { ...initialEnvironmentState(), ...patch };
}
const meshing = (status: EnvironmentState['meshing']['status'], progress = 0) => ({
  status,
  progress,
  options: {},
});

describe('status chip texts (spec 001 §2), with the progress percent while meshing or running', () => {
  const cases: [string, Partial<EnvironmentState>, string, number | undefined][] = [
    [
      'meshing submitted',
      { model: surface, meshing: meshing('submitting') },
      'Submitting for Meshing...',
      undefined,
    ],
    ['meshing', { model: surface, meshing: meshing('meshing', 40) }, 'Generating Volume Mesh...', 40],
    ['meshing failed', { model: surface, meshing: meshing('failed') }, 'Meshing Failed', undefined],
    ['meshing done', { model: volume, meshing: meshing('completed') }, 'Meshing: completed', undefined],
    [
      'analysis submitted',
      { model: volume, analysis: { status: 'submitting', progress: 0 } },
      'Submitting Analysis...',
      undefined,
    ],
    [
      'analysis running',
      { model: volume, analysis: { status: 'running', progress: 55 } },
      'Running FEA Analysis...',
      55,
    ],
    [
      'analysis done',
      { model: volume, analysis: { status: 'completed', progress: 100 } },
      'FEA: completed',
      undefined,
    ],
    [
      'analysis failed',
      { model: volume, analysis: { status: 'failed', progress: 0 } },
      'Analysis Failed',
      undefined,
    ],
    ['volume mesh ready', { model: volume }, 'Ready for Analysis', undefined],
  ];
  for (const [name, patch, text, progress] of cases) {
    it(`${name}: ${text}`, () => {
      const chip = statusChip(state(patch));
      expect(chip.text).toBe(text);
      expect(chip.progress).toBe(progress);
    });
  }
});

describe('viewer modes (spec 001 §9)', () => {
  it('numbers the render and surface field modes as the spec does', () => {
    expect(RENDER_MODES.map((m) => [m.value, m.label])).toEqual([
      [0, 'Shell & Wireframe'],
      [1, 'Wireframe'],
      [2, 'X-Ray'],
      [3, 'Solid'],
    ]);
    expect(SURFACE_FIELD_MODES.map((m) => [m.value, m.label])).toEqual([
      [0, 'Electric Field'],
      [1, 'Magnetic Field'],
      [2, 'Electric Magnitude'],
      [3, 'Magnetic Magnitude'],
    ]);
  });
});

describe('result processing messages (spec 001 §8)', () => {
  it('a results file that cannot be shown: Failed to load FEA results: …', () => {
    const { deps } = makeDeps(new FakeServer());
    const error = applyResults({ solver_info: {}, field_magnitudes: {} }, deps, {
      fromFile: { fileName: 'r.json' },
    });
    expect(error?.title).toBe('Failed to load FEA results: No result data available for visualization');
    expect(deps.store.get().analysis.status).toBe('failed');
  });

  it('results that break processing: Failed to process analysis results for visualization', () => {
    const { deps } = makeDeps(new FakeServer());
    const broken = {
      get vertices(): unknown {
        throw new TypeError('unreadable');
      },
    };
    expect(applyResults(broken, deps)?.title).toBe('Failed to process analysis results for visualization');
  });
});
