import { lazyChart } from '../../results/lazy-charts.tsx';
import type { FamilyModule } from '../family-module.ts';
import { LOAD_FACES, SUPPORT_FACES } from '../structural/index.ts';
import { VibrationModes } from './results/VibrationModes.tsx';
import { VibrationGroups } from './VibrationGroups.tsx';
import { defaultVibrationForm, vibrationFromBackend, vibrationToBackend } from './vibration-form.ts';
import { vibrationRunSettings } from './vibration-run-settings.ts';

// The response chart draws with the line charts: their own chunk, fetched when a result is first shown.
const HarmonicResponse = lazyChart(() =>
  import('./results/HarmonicResponse.tsx').then((m) => m.HarmonicResponse),
);

/** Natural frequencies and mode shapes, and the harmonic response (docs/vibration.md); the structural family's
 * supports, loads and materials are its own too. */
const vibration: FamilyModule = {
  id: 'vibration',
  label: 'Vibration',
  order: 2,
  blurb: 'Natural frequencies and mode shapes, and the harmonic response to loads over a frequency band.',
  analysisTypes: ['modal', 'harmonic'],
  minMeshOrder: 2,
  defaults: defaultVibrationForm,
  // a chosen structural job ran on the old model's mesh
  modelBound: ['vibrationPrestressJob'],
  Groups: VibrationGroups,
  // a modal run has no loads, unless they prestress it
  faceLists: (form) =>
    form.vibrationKind === 'harmonic' || form.vibrationPrestress === 'loads'
      ? [SUPPORT_FACES, LOAD_FACES]
      : [SUPPORT_FACES],
  // Natural frequencies stop on the change of the requested frequencies; a harmonic response adapts at one
  // frequency (the band's highest unless chosen) and sweeps on the final mesh (docs/adaptive.md).
  adaptiveQuantities: (form) =>
    form.vibrationKind === 'modal'
      ? [{ value: 'first_frequency_Hz', label: 'First natural frequency only' }]
      : [
          {
            value: 'max_displacement_amplitude_m',
            label: 'Max displacement amplitude (at the adaptation frequency)',
          },
          { value: 'peak_displacement_m', label: 'Probe displacement amplitude (needs a probe point)' },
        ],
  // the passes solve one frequency: the chosen one, else the band's highest (docs/adaptive.md)
  adaptiveFrequency: (form) =>
    form.vibrationKind === 'harmonic' ? `the band's highest (${form.harmonicFreqMax || '–'} Hz)` : null,
  analysisType: (form) => form.vibrationKind,
  mode: (analysisType) => analysisType,
  toBackend: (form, { bodies }) => vibrationToBackend(form, bodies),
  fromBackend: (config) => vibrationFromBackend(config),
  analysisLabel: (config) =>
    config.analysisType === 'harmonic' ? 'Harmonic response (harmonic)' : 'Natural frequencies (modal)',
  runSettings: vibrationRunSettings,
  summaryPanels: [],
  resultPanels: [VibrationModes, HarmonicResponse],
};

export default vibration;
