import { AnalysisConfigFields, estimateForUnknowns, MEMORY_MODEL } from '@fieldline/contracts';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { estimateNote, estimateSummary } from '../../src/environment/run/estimate-text.ts';
import { createJobControls, EnvironmentContext } from '../../src/environment/state/EnvironmentContext.tsx';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { AnimationControls } from '../../src/environment/visualization/AnimationControls.tsx';
import { deformationText } from '../../src/environment/visualization/deformation-text.ts';
import type { DeformationSummary } from '../../src/results-format/index.ts';
import { legendTitle } from '../../src/viewer/ui/legend.ts';
import { FakeServer, makeDeps } from './fakes.ts';

afterEach(cleanup);

/** What a new user met in the modal and validation views (issue 36, "fix while there"). */
describe('the animation buttons', () => {
  it('are drawn as SVG icons with accessible names, not symbol-font characters', () => {
    const { deps, store } = makeDeps(new FakeServer());
    const bridge = new ViewerBridge(window, window.location.origin);
    render(
      <EnvironmentContext.Provider value={{ store, deps, bridge, jobs: createJobControls() }}>
        <AnimationControls frameCount={6} />
      </EnvironmentContext.Provider>,
    );
    const buttons = screen.getByTestId('animation-controls').querySelectorAll('.transport button');
    expect([...buttons].map((b) => b.getAttribute('aria-label'))).toEqual([
      'Previous frame',
      'Play',
      'Next frame',
    ]);
    for (const b of buttons) {
      // no text a missing font could turn into an empty box: the icon is a path
      expect(b.textContent).toBe('');
      expect(b.querySelector('svg path, svg rect')).not.toBeNull();
    }
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    expect(
      screen.getByRole('button', { name: 'Pause' }).querySelector('svg[data-icon=pause]'),
    ).not.toBeNull();
  });
});

describe('the exaggeration of a deformed shape', () => {
  // a 42 mm bracket: the automatic scale draws the largest displacement at 5 % of 42 mm = 2.1 mm
  const modeShape: DeformationSummary = {
    field: 'displacement',
    autoScale: 2.1e-3,
    largest: 1,
    unit: '',
    modelUnit: 'mm',
  };
  it('says a mode shape’s drawn amplitude in model units, not "× 2.1e-3"', () => {
    const { drawn, note } = deformationText(modeShape, modeShape.autoScale);
    expect(drawn).toBe('largest 2.1 mm');
    expect(note).toBe(
      "The mode shape is drawn with its largest displacement at 2.1 mm: a mode's amplitude is arbitrary, only its shape and frequency are results.",
    );
    expect(`${drawn} ${note}`).not.toMatch(/e-3|×/);
  });
  it('says what the factor scales for a computed displacement', () => {
    const static_: DeformationSummary = { ...modeShape, autoScale: 1250, largest: 1.68e-6, unit: 'm' };
    const { drawn, note } = deformationText(static_, 1250);
    expect(drawn).toBe('largest 2.1 mm');
    expect(note).toBe('Displacements drawn × 1,250: the largest, 1.68 µm, shows as 2.1 mm.');
    expect(deformationText({ ...static_, modelUnit: 'in' }, 1250).drawn).toBe('largest 0.0827 in');
  });
});

describe('the legend title', () => {
  // a proportional font's width: about 0.6 em a character at weight 600
  const measure = (text: string, px: number) => text.length * px * 0.6;
  it('keeps a short title on one line at 13 px', () => {
    expect(legendTitle('Temperature', measure)).toEqual({ lines: ['Temperature'], size: 13 });
  });
  it('wraps a long title onto two lines at a readable size instead of shrinking it to 9 px', () => {
    const t = legendTitle('Displacement (mode shape)', measure);
    expect(t.lines).toEqual(['Displacement', '(mode shape)']);
    expect(t.size).toBeGreaterThanOrEqual(12);
    const long = legendTitle('Maximum principal stress', measure);
    expect(long.lines).toHaveLength(2);
    expect(long.size).toBeGreaterThanOrEqual(11);
  });
});

describe('the run estimate beside Run', () => {
  const config = AnalysisConfigFields.parse({ analysisType: 'em', meshOrder: 1 });
  it('leads with what a 9 k-unknown model needs, not the libraries’ reserved gigabyte', () => {
    const estimate = estimateForUnknowns(9000, config);
    expect(estimate.memoryBytes).toBeGreaterThan(MEMORY_MODEL.baseBytes); // the server's figure, unchanged
    const summary = estimateSummary(estimate);
    expect(summary).toMatch(/^≈ 9000 unknowns, ≈\u00a0\d+\u00a0MB for this model · direct solver$/);
    expect(summary).not.toContain('GB');
    const model = Math.round((estimate.memoryBytes - MEMORY_MODEL.baseBytes) / 1e6);
    expect(summary).toContain(`${model}\u00a0MB`);
    expect(estimateNote(estimate)).toBe(
      `The job counts ≈\u00a0${(estimate.memoryBytes / 1e9).toFixed(1)}\u00a0GB against its memory limit: the solver's libraries reserve ≈\u00a01.0\u00a0GB of address space whatever the model (≈\u00a0180\u00a0MB of it in use).`,
    );
  });
});
