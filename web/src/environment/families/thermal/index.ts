import { lazyChart } from '../../results/lazy-charts.tsx';
import { emConductionFromBackend } from '../em/em-from-backend.ts';
import { emConductionToBackend } from '../em/em-to-backend.ts';
import { coilArrows } from '../em/magnetics/coil-arrows.ts';
import { magneticsFaceLists } from '../em/magnetics/magnetics-face-lists.ts';
import { MagneticsPanel } from '../em/magnetics/results/MagneticsPanel.tsx';
import type { FaceRow, FamilyModule } from '../family-module.ts';
import { inductionFromBackend, inductionToBackend } from './induction-heating.ts';
import { HeatFlows } from './results/HeatFlows.tsx';
import { ThermalGroups } from './ThermalGroups.tsx';
import { defaultThermalForm, thermalFromBackend, thermalToBackend } from './thermal-form.ts';
import { thermalRunSettings } from './thermal-run-settings.ts';

// The temperature history draws with the line charts: their own chunk, fetched when a result is first shown.
const ThermalHistory = lazyChart(() => import('./results/ThermalHistory.tsx').then((m) => m.ThermalHistory));

const named = (fallback: string) => (row: FaceRow, i: number) => row.name?.trim() || `${fallback} ${i + 1}`;

/** Steady and transient heat conduction (docs/thermal.md); Joule heating runs the EM family's DC conduction
 * on the same form's voltage terminals first (the engine's thermal/joule.py), induction heating its eddy-current
 * solve on the same form's coils and solid conductors (thermal/induction.py, docs/magnetics.md §8). */
const thermal: FamilyModule = {
  id: 'thermal',
  label: 'Thermal',
  order: 1,
  blurb:
    'Steady and transient heat conduction with convection, radiation, heat sources, Joule heating from the conduction solve and induction heating from eddy currents.',
  analysisTypes: ['thermal', 'thermal-time'],
  defaults: defaultThermalForm,
  // a chosen start job ran on the old model's mesh
  modelBound: ['thermalConditions', 'heatSources', 'thermalInitialJob'],
  Groups: ThermalGroups,
  faceLists: (form) => [
    {
      list: 'thermalConditions',
      toneOf: (row) => (row.kind === 'temperature' ? 'constraint' : row.kind === 'flux' ? 'load' : 'other'),
      nameOf: named('Condition'),
    },
    ...(form.jouleHeating
      ? [{ list: 'dirichletFaceGroups' as const, toneOf: () => 'other' as const, nameOf: named('Terminal') }]
      : []),
    // an open coil's terminals and the flux boundaries, picked on the model
    ...(form.inductionHeating ? magneticsFaceLists(form) : []),
  ],
  // the coils' current direction before an induction-heated run
  arrowMarks: (form, mesh) => (form.inductionHeating ? coilArrows(form, mesh) : []),
  // A transient adapts on its history: every pass runs the whole transient (docs/adaptive.md).
  adaptiveQuantities: (form) =>
    form.thermalTransient
      ? [
          { value: 'max_temperature_K', label: 'Max temperature at the end' },
          { value: 'peak_temperature_K', label: 'Peak temperature over the run' },
          { value: 'energy_stored_J', label: 'Heat taken in over the run' },
        ]
      : [{ value: 'max_temperature_K', label: 'Max temperature' }],
  analysisType: (form) => (form.thermalTransient ? 'thermal-time' : 'thermal'),
  mode: (analysisType) => analysisType,
  // Joule heating: the conduction keys (voltages, terminals, σ) the engine's conduction solve reads; induction
  // heating: the eddy-current keys (frequency, coils, solid conductors, flux boundaries)
  toBackend: (form, { bodies }) => ({
    ...(form.jouleHeating ? emConductionToBackend(form) : {}),
    ...(form.inductionHeating ? inductionToBackend(form, bodies) : {}),
    ...thermalToBackend(form, bodies),
  }),
  fromBackend: (config, reader) => ({
    ...thermalFromBackend(config),
    ...(config.jouleHeating === true ? emConductionFromBackend(reader) : {}),
    ...(config.inductionHeating === true ? inductionFromBackend(reader) : {}),
  }),
  analysisLabel: (config) =>
    config.analysisType === 'thermal-time'
      ? 'Transient heat conduction (thermal-time)'
      : 'Steady heat conduction (thermal)',
  runSettings: thermalRunSettings,
  // induction heating's losses per body and the coils' impedance
  summaryPanels: [HeatFlows, MagneticsPanel],
  resultPanels: [ThermalHistory],
};

export default thermal;
