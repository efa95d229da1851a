import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AnalysisConfigForm } from '../../src/environment/config/AnalysisConfigForm.tsx';
import { defaultAnalysisForm } from '../../src/environment/config/form-defaults.ts';
import { fromBackendConfig } from '../../src/environment/config/from-backend-config.ts';
import { toBackendConfig } from '../../src/environment/config/to-backend-config.ts';
import { newEmRows } from '../../src/environment/families/em/em-form.ts';
import { quantityLabel, quantityValue } from '../../src/environment/results/adaptive-passes.ts';
import { FeaResults } from '../../src/environment/results/FeaResults.tsx';
import { loadCharts } from '../../src/environment/results/lazy-charts.tsx';
import { processResults } from '../../src/environment/results/process-results.ts';
import { RunEstimate } from '../../src/environment/run/RunEstimate.tsx';
import { createJobControls, EnvironmentContext } from '../../src/environment/state/EnvironmentContext.tsx';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { FakeServer, makeDeps, tinyVolume } from './fakes.ts';

afterEach(cleanup);

function openGroup(): HTMLElement {
  const group = screen.getByTestId('group-adaptive');
  const head = group.querySelector('.section-head') as HTMLButtonElement;
  if (head.getAttribute('aria-expanded') !== 'true') fireEvent.click(head);
  return group;
}

/** The quantities the open group's "Stop when" offers (ticking the group on first). */
function quantityOptions(): string[] {
  const group = openGroup();
  if (!(within(group).queryByTestId('adaptive-enabled') as HTMLInputElement | null)?.checked) {
    fireEvent.click(within(group).getByTestId('adaptive-enabled'));
  }
  return [...within(group).getByTestId('adaptive-quantity').querySelectorAll('option')].map((o) => o.value);
}

/** Adaptive refinement (docs/adaptive.md) in the form every family shows, the run estimate, and the passes. */
function mount(children: React.ReactNode, setup?: (deps: ReturnType<typeof makeDeps>) => void) {
  const made = makeDeps(new FakeServer());
  made.store.set({ model: { fileName: 'v.json', format: 'json', mesh: tinyVolume, unitsEditable: false } });
  setup?.(made);
  render(
    <EnvironmentContext.Provider
      value={{
        store: made.store,
        deps: made.deps,
        bridge: new ViewerBridge(window, '*'),
        jobs: createJobControls(),
      }}
    >
      {children}
    </EnvironmentContext.Provider>,
  );
  return made;
}

describe('adaptive refinement', () => {
  it('is one common group under every family, offering the quantities of the analysis the form runs', () => {
    const { store } = mount(<AnalysisConfigForm />);
    for (const physics of ['em', 'thermal', 'structural'] as const) {
      act(() => store.set((s) => ({ form: { ...s.form, physics } })));
      const group = screen.getByTestId('group-adaptive');
      const head = group.querySelector('.section-head') as HTMLButtonElement;
      if (head.getAttribute('aria-expanded') !== 'true') fireEvent.click(head);
      if (!(screen.queryByTestId('adaptive-enabled') as HTMLInputElement | null)?.checked) {
        fireEvent.click(within(group).getByTestId('adaptive-enabled'));
      }
      const options = [...within(group).getByTestId('adaptive-quantity').querySelectorAll('option')].map(
        (o) => o.value,
      );
      expect(options[0]).toBe('');
      expect(options).toContain(
        physics === 'em' ? 'S' : physics === 'thermal' ? 'max_temperature_K' : 'max_von_mises_Pa',
      );
    }
    // natural frequencies (modal) stop on the requested frequencies, or the first alone
    act(() => store.set((s) => ({ form: { ...s.form, physics: 'vibration', vibrationKind: 'modal' } })));
    expect(quantityOptions()).toEqual(['', 'first_frequency_Hz']);
    // a harmonic response adapts at one frequency on its amplitude (or a probe's)
    act(() => store.set((s) => ({ form: { ...s.form, vibrationKind: 'harmonic' } })));
    expect(quantityOptions()).toEqual(['', 'max_displacement_amplitude_m', 'peak_displacement_m']);
    // eddy currents: the loss, each conductor's impedance, the inductance, the energy
    act(() => store.set((s) => ({ form: { ...s.form, physics: 'em', analysisType: 'eddy-current' } })));
    expect(quantityOptions()).toEqual([
      '',
      'total_loss_W',
      'resistance_ohm',
      'reactance_ohm',
      'inductance_H',
      'energy_J',
    ]);
    // a transient thermal run adapts on its history
    act(() => store.set((s) => ({ form: { ...s.form, physics: 'thermal', thermalTransient: true } })));
    expect(quantityOptions()).toEqual(['', 'max_temperature_K', 'peak_temperature_K', 'energy_stored_J']);
    // a time-domain EM run adapts on its history too: the figures its results give
    act(() =>
      store.set((s) => ({ form: { ...s.form, physics: 'em', analysisType: 'em', transient: true } })),
    );
    expect(screen.queryByTestId('adaptive-unavailable')).toBeNull();
    expect(quantityOptions()).toEqual([
      '',
      'S',
      'resonance_frequency_Hz',
      'peak_port_voltage_V',
      'peak_energy_J',
      'peak_electric_field_V_per_m',
    ]);
  });

  it('sends a time-domain run with adaptiveRefinement, and its estimate counts the passes at full length', () => {
    const form = {
      ...defaultAnalysisForm(),
      physics: 'em' as const,
      transient: true,
      adaptiveEnabled: true,
      adaptiveQuantity: 'resonance_frequency_Hz',
      adaptiveMaxUnknowns: '40000',
    };
    const sent = toBackendConfig(form, { bodies: [] });
    expect(sent.analysisType).toBe('em-time');
    expect(sent.adaptiveRefinement).toMatchObject({ quantity: 'resonance_frequency_Hz', maxUnknowns: 40000 });
    expect(fromBackendConfig(JSON.parse(JSON.stringify(sent))).form).toMatchObject({
      transient: true,
      adaptiveEnabled: true,
      adaptiveQuantity: 'resonance_frequency_Hz',
    });
    mount(<RunEstimate />, ({ store }) => store.set((s) => ({ form: { ...s.form, ...form } })));
    expect(screen.getByTestId('run-estimate').textContent).toMatch(/adaptive refinement may grow it to 40 k/);
  });

  it('offers the adaptation frequency where a harmonic response adapts, and sends it only there', () => {
    const { store } = mount(<AnalysisConfigForm />);
    act(() =>
      store.set((s) => ({
        form: { ...s.form, physics: 'vibration', vibrationKind: 'harmonic', harmonicFreqMax: '800' },
      })),
    );
    quantityOptions(); // opens the group and ticks it on
    const field = within(openGroup()).getByTestId('adaptive-frequency') as HTMLInputElement;
    expect(field.placeholder).toBe("the band's highest (800 Hz)");
    fireEvent.change(field, { target: { value: '650' } });
    const harmonic = store.get().form;
    expect(harmonic.adaptiveFrequency).toBe('650');
    const sent = toBackendConfig(harmonic, { bodies: [] });
    expect(sent.analysisType).toBe('harmonic');
    expect(sent.adaptiveRefinement).toMatchObject({ frequency: 650 });
    expect(fromBackendConfig(JSON.parse(JSON.stringify(sent))).form).toMatchObject({
      vibrationKind: 'harmonic',
      adaptiveEnabled: true,
      adaptiveFrequency: '650',
    });
    // blank: the engine's default (the band's highest), nothing sent
    expect(
      toBackendConfig({ ...harmonic, adaptiveFrequency: '' }, { bodies: [] }).adaptiveRefinement,
    ).not.toHaveProperty('frequency');
    // natural frequencies adapt on the modes, not at a frequency: no field, and a typed one is not sent
    act(() => store.set((s) => ({ form: { ...s.form, vibrationKind: 'modal' } })));
    expect(within(openGroup()).queryByTestId('adaptive-frequency')).toBeNull();
    const modal = toBackendConfig(store.get().form, { bodies: [] });
    expect(modal.analysisType).toBe('modal');
    expect(modal.adaptiveRefinement).not.toHaveProperty('frequency');
    // nor with another family's analysis
    const structural = toBackendConfig({ ...harmonic, physics: 'structural' }, { bodies: [] });
    expect(structural.adaptiveRefinement).not.toHaveProperty('frequency');
  });

  it("offers the adaptation frequency for a full-wave run (blank: the band's highest), not a static one", () => {
    const { store } = mount(<AnalysisConfigForm />);
    const ports = [
      { ...newEmRows.wavePort(0), faces: '1' },
      { ...newEmRows.wavePort(1), faces: '2' },
    ];
    act(() =>
      store.set((s) => ({
        form: {
          ...s.form,
          physics: 'em',
          analysisType: 'em',
          frequencyHz: 1e10,
          useWavePorts: true,
          wavePorts: ports,
          calculateSParameters: true,
          sParamFreqMin: '9e9',
          sParamFreqMax: '1.1e10',
        },
      })),
    );
    quantityOptions(); // opens the group and ticks it on
    const field = within(openGroup()).getByTestId('adaptive-frequency') as HTMLInputElement;
    expect(field.placeholder).toBe("the band's highest (11 GHz)");
    fireEvent.change(field, { target: { value: '1e10' } });
    const fullwave = store.get().form;
    expect(fullwave.adaptiveFrequency).toBe('1e10');
    const sent = toBackendConfig(fullwave, { bodies: [] });
    expect(sent.adaptiveRefinement).toMatchObject({ frequency: 1e10 });
    expect(sent).toMatchObject({ sParamFreqMax: 1.1e10, useWavePorts: true });
    expect(fromBackendConfig(JSON.parse(JSON.stringify(sent))).form).toMatchObject({
      analysisType: 'em',
      adaptiveEnabled: true,
      adaptiveFrequency: '10000000000',
    });
    // blank: the engine's default (the band's highest), nothing sent
    expect(
      toBackendConfig({ ...fullwave, adaptiveFrequency: '' }, { bodies: [] }).adaptiveRefinement,
    ).not.toHaveProperty('frequency');
    // ports without a sweep: the run's one frequency is the default
    act(() => store.set((s) => ({ form: { ...s.form, calculateSParameters: false } })));
    expect((within(openGroup()).getByTestId('adaptive-frequency') as HTMLInputElement).placeholder).toBe(
      "the run's frequency (10 GHz)",
    );
    // forced full-wave without ports also adapts at a frequency
    act(() =>
      store.set((s) => ({ form: { ...s.form, useWavePorts: false, formulation: 'fullwave' as const } })),
    );
    expect(toBackendConfig(store.get().form, { bodies: [] }).adaptiveRefinement).toMatchObject({
      frequency: 1e10,
    });
    // a quasi-static or DC run adapts on its one solve: no field, a typed value is not sent
    for (const form of [
      { formulation: 'auto' as const },
      { formulation: 'auto' as const, useWavePorts: true, frequencyHz: 0 },
    ]) {
      act(() => store.set((s) => ({ form: { ...s.form, ...form } })));
      expect(within(openGroup()).queryByTestId('adaptive-frequency')).toBeNull();
      expect(toBackendConfig(store.get().form, { bodies: [] }).adaptiveRefinement).not.toHaveProperty(
        'frequency',
      );
    }
    // a time-domain run adapts on its whole history: no adaptation frequency either
    act(() => store.set((s) => ({ form: { ...s.form, frequencyHz: 1e10, transient: true } })));
    expect(within(openGroup()).queryByTestId('adaptive-frequency')).toBeNull();
  });

  it('maps the group to adaptiveRefinement and back; off sends nothing', () => {
    const form = defaultAnalysisForm();
    expect(toBackendConfig(form, { bodies: [] }).adaptiveRefinement).toBeUndefined();
    const on = {
      ...form,
      physics: 'structural' as const,
      adaptiveEnabled: true,
      adaptiveTolerance: '0.01',
      adaptiveQuantity: 'max_von_mises_Pa',
      adaptiveMaxPasses: '99',
      adaptiveMaxUnknowns: '80000',
      adaptiveFraction: '0.6',
    };
    const sent = toBackendConfig(on, { bodies: [] });
    expect(sent.adaptiveRefinement).toEqual({
      tolerance: 0.01,
      quantity: 'max_von_mises_Pa',
      maxPasses: 30, // clamped to the contract's bound
      maxUnknowns: 80000,
      fraction: 0.6,
    });
    const back = fromBackendConfig(JSON.parse(JSON.stringify(sent))).form;
    expect(back).toMatchObject({
      adaptiveEnabled: true,
      adaptiveQuantity: 'max_von_mises_Pa',
      adaptiveMaxPasses: '30',
      adaptiveFraction: '0.6',
    });
    // a share outside (0, 1] is left to the engine's default
    const outside = toBackendConfig({ ...on, adaptiveFraction: '1.5' }, { bodies: [] });
    expect(outside.adaptiveRefinement).not.toHaveProperty('fraction');
  });

  it('tells before the run that the model may grow to the size limit', () => {
    mount(<RunEstimate />, ({ store }) =>
      store.set((s) => ({ form: { ...s.form, adaptiveEnabled: true, adaptiveMaxUnknowns: '50000' } })),
    );
    expect(screen.getByTestId('run-estimate').textContent).toMatch(/adaptive refinement may grow it to 50 k/);
  });

  it('shows the passes as a table, what stopped them, and the convergence plot', async () => {
    const result = {
      solver_info: {
        elements: 900,
        matrix_size: 300,
        adaptive_passes: [
          {
            pass: 1,
            unknowns: 40,
            elements: 72,
            estimated_error: 0.2,
            quantity: 310,
            change: null,
            time_s: 0.3,
          },
          {
            pass: 2,
            unknowns: 120,
            elements: 300,
            estimated_error: 0.08,
            quantity: 305,
            change: 0.016,
            time_s: 0.4,
          },
          {
            pass: 3,
            unknowns: 300,
            elements: 900,
            estimated_error: 0.009,
            quantity: 304.5,
            change: 0.0016,
            time_s: 0.6,
          },
        ],
        adaptive_refinement: {
          quantity: 'max_temperature_K',
          converged: true,
          stopped_by: 'tolerance',
          message: 'Converged after pass 3: the estimated relative error is 0.009, below the tolerance 0.01.',
          tolerance: 0.01,
        },
      },
      vertices: tinyVolume.vertices,
      faces: tinyVolume.faces,
      tetrahedra: tinyVolume.tetrahedra,
    };
    await loadCharts();
    mount(<FeaResults />, ({ store }) =>
      store.set({
        results: processResults(result),
        rawResults: result,
        analysis: { status: 'completed', progress: 100 },
      }),
    );
    expect(screen.getAllByTestId('adaptive-pass')).toHaveLength(3);
    expect(screen.getByTestId('adaptive-outcome').textContent).toMatch(/Converged after pass 3/);
    expect(within(screen.getByTestId('adaptive-table')).getByText('max_temperature_K')).toBeTruthy();
    expect(screen.getByTestId('adaptive-convergence').querySelectorAll('svg')).toHaveLength(2);
    // a steady run solves no one frequency: nothing said of one
    expect(screen.queryByTestId('adaptive-frequency-used')).toBeNull();

    // a run whose passes solved one frequency (full-wave, harmonic) says which
    cleanup();
    const adapted = { ...result, solver_info: { ...result.solver_info, adaptation_frequency_Hz: 1e10 } };
    mount(<FeaResults />, ({ store }) =>
      store.set({
        results: processResults(adapted),
        rawResults: adapted,
        analysis: { status: 'completed', progress: 100 },
      }),
    );
    expect(screen.getByTestId('adaptive-frequency-used').textContent).toMatch(/^The passes solved 10 GHz/);
  });

  it('shows a modal run by its first frequency, an S run by its largest |S|', () => {
    expect(quantityValue([16.6, 16.6, 105.5, 105.5], 'frequencies_Hz')).toBe(16.6);
    expect(quantityLabel('frequencies_Hz')).toBe('f₁ (Hz)');
    expect(quantityValue([0.98, 0.2, 0.2, 0.98], 'S')).toBe(0.98);
    expect(quantityLabel('S')).toBe('max |S|');
    expect(quantityValue(310, 'max_temperature_K')).toBe(310);
  });
});
