import { type AnalysisType, EM_TIME_QUANTITIES } from '@fieldline/contracts';
import { lazyChart } from '../../results/lazy-charts.tsx';
import { formatHz } from '../../results/quantities.ts';
import type { FaceListRole, FaceRow, FamilyModule } from '../family-module.ts';
import { ElectromagneticGroups } from './ElectromagneticGroups.tsx';
import { emAdaptationFrequency } from './em-adaptation-frequency.ts';
import { defaultEmForm } from './em-form.ts';
import { emFromBackend } from './em-from-backend.ts';
import { emAnalysisLabel, emRunSettings } from './em-run-settings.ts';
import { EM_IDLE_KEYS, emMode, emToBackend } from './em-to-backend.ts';
import { coilArrows } from './magnetics/coil-arrows.ts';
import { magneticsFaceLists } from './magnetics/magnetics-face-lists.ts';
import { isMagneticType } from './magnetics/magnetics-to-backend.ts';
import { MagneticsPanel } from './magnetics/results/MagneticsPanel.tsx';
import { Eigenmodes } from './results/Eigenmodes.tsx';
import { EnableAnimation } from './results/EnableAnimation.tsx';
import { SParametersPanel } from './results/SParametersPanel.tsx';

// The time-domain panel draws with the line charts: their own chunk, fetched when a result is first shown.
const TimeDomain = lazyChart(() => import('./results/TimeDomain.tsx').then((m) => m.TimeDomain));

// What the form's "Stop when" calls each figure of a time-domain run.
const EM_TIME_LABELS: Record<(typeof EM_TIME_QUANTITIES)[number], string> = {
  resonance_frequency_Hz: 'Ringing frequency at the first probe',
  peak_port_voltage_V: 'Peak voltage at a port or voltage source',
  peak_energy_J: 'Peak stored energy over the run',
  peak_electric_field_V_per_m: 'Peak |E| at the probes',
};

const named = (fallback: string) => (row: FaceRow, i: number) => row.name?.trim() || `${fallback} ${i + 1}`;

const electricFaceLists: FaceListRole[] = [
  { list: 'dirichletFaceGroups', toneOf: () => 'constraint', nameOf: named('Terminal') },
  { list: 'neumann', toneOf: () => 'other', nameOf: named('Neumann') },
  { list: 'impedance', toneOf: () => 'other', nameOf: named('Impedance') },
  { list: 'wavePorts', toneOf: () => 'load', nameOf: (row, i) => `Port ${row.portID?.trim() || i + 1}` },
];

/** Electrostatics, conduction, quasi-statics, full-wave RF, time domain and cavity eigenmodes (docs/em-static.md,
 * docs/fullwave.md, docs/transient.md). */
const em: FamilyModule = {
  id: 'em',
  label: 'Electromagnetic',
  order: 0,
  blurb:
    'Electrostatics, conduction, RF and magnetics: fields, S-parameters, time-domain pulses, cavity eigenmodes, coils, magnets and iron.',
  analysisTypes: ['em', 'em-time', 'em-eigen', 'magnetostatic', 'eddy-current'],
  defaults: defaultEmForm,
  modelBound: [
    'defaultPermittivity',
    'defaultPermeability',
    'defaultConductivity',
    'density',
    'heatCapacity',
    'useAnisotropicMaterials',
    'anisotropicMaterials',
    'dirichletNodes',
    'dirichletFaceGroups',
    'neumann',
    'impedance',
    'wavePorts',
    'referenceNode',
    'coils',
    'coilTerminals',
    'solidConductors',
    'conductorTerminals',
    'magneticBoundaries',
    'magneticBodies',
    'forceBodies',
  ],
  Groups: ElectromagneticGroups,
  faceLists: (form) => (isMagneticType(form.analysisType) ? magneticsFaceLists(form) : electricFaceLists),
  arrowMarks: (form, mesh) => (isMagneticType(form.analysisType) ? coilArrows(form, mesh) : []),
  // Static and conduction runs stop on the estimated error or a figure; full-wave on max |ΔS|; eigenmodes on the
  // change of the modes' frequencies; magnetostatics and eddy currents on B's estimated error or a figure
  // (docs/adaptive.md). A time-domain run adapts on its history: every pass runs the whole transient.
  adaptiveQuantities: (form) =>
    form.transient && !isMagneticType(form.analysisType)
      ? [
          { value: 'S', label: 'S-parameters over the pulse’s band: max |ΔS|' },
          ...EM_TIME_QUANTITIES.map((value) => ({ value, label: EM_TIME_LABELS[value] })),
        ]
      : form.analysisType === 'em-eigen'
        ? []
        : form.analysisType === 'magnetostatic'
          ? [
              { value: 'energy_J', label: 'Stored magnetic energy' },
              { value: 'inductance_H', label: 'Inductance (one coil)' },
            ]
          : form.analysisType === 'eddy-current'
            ? [
                { value: 'total_loss_W', label: 'Total eddy and copper loss' },
                { value: 'resistance_ohm', label: 'Resistance of each coil and conductor (Re Z)' },
                { value: 'reactance_ohm', label: 'Reactance of each coil and conductor (Im Z)' },
                { value: 'inductance_H', label: 'Inductance (one coil)' },
                { value: 'energy_J', label: 'Stored magnetic energy' },
              ]
            : form.analysisType !== 'em'
              ? null
              : [
                  { value: 'S', label: 'S-parameters: max |ΔS| at the adaptation frequency' },
                  { value: 'capacitance_F', label: 'Capacitance' },
                  { value: 'resistance_ohm', label: 'Resistance' },
                  { value: 'stored_energy_J', label: 'Stored energy' },
                  { value: 'dissipated_power_W', label: 'Dissipated power' },
                ],
  // Full-wave passes solve one frequency (HFSS's rule): the chosen one, else the band's highest (docs/adaptive.md).
  adaptiveFrequency: emAdaptationFrequency,
  analysisType: (form): AnalysisType =>
    form.transient && !isMagneticType(form.analysisType) ? 'em-time' : form.analysisType,
  mode: emMode,
  toBackend: emToBackend,
  idleKeys: EM_IDLE_KEYS,
  fromBackend: (_config, reader) => emFromBackend(reader),
  analysisLabel: emAnalysisLabel,
  runSettings: emRunSettings,
  solverRows: (info) => {
    // a time-domain run's frequency is its pulse's carrier; a baseband Gaussian has none
    if (info.analysis !== 'em-time')
      return typeof info.frequency === 'number' ? [['Frequency', formatHz(info.frequency)]] : [];
    return typeof info.frequency === 'number' && info.frequency > 0
      ? [['Carrier frequency', formatHz(info.frequency)]]
      : [];
  },
  // A time-domain run lists its warnings among its notes (TimeDomain).
  listsOwnWarnings: (info) => info.analysis === 'em-time',
  summaryPanels: [MagneticsPanel],
  resultPanels: [Eigenmodes, TimeDomain, SParametersPanel, EnableAnimation],
};

export default em;
