import {
  ANALYSIS_DEFAULTS,
  type LINEAR_SOLVERS,
  type PULSE_SHAPES,
  type S_PARAM_METHODS,
  type S_PARAM_SWEEP_TYPES,
  type TIME_SCHEMES,
  type WAVE_PORT_MODES,
} from '@fieldline/contracts';
import type { MaterialProperty } from './common/body-materials.ts';
import type { PhysicsFamily } from './families.ts';
import { defaultStructuralForm, type StructuralFormFields } from './structural/structural-form.ts';
import { defaultThermalForm, type ThermalFormFields } from './thermal/thermal-form.ts';
import { defaultVibrationForm, type VibrationFormFields } from './vibration/vibration-form.ts';

export type WavePortMode = (typeof WAVE_PORT_MODES)[number];
export type SParamMethod = (typeof S_PARAM_METHODS)[number];
export type SParamSweepType = (typeof S_PARAM_SWEEP_TYPES)[number];
export type TimeScheme = (typeof TIME_SCHEMES)[number];
export type MeshOrder = 1 | 2 | 3;
export type LinearSolver = (typeof LINEAR_SOLVERS)[number];
export type PulseShape = (typeof PULSE_SHAPES)[number];

/** Typed entries stay text until the config is built, so fallbacks apply to what the user typed. */
export interface DirichletNodeRow {
  key: string;
  node: string;
  voltage: string;
}
export interface DirichletFaceGroupRow {
  key: string;
  name: string;
  faces: string;
  voltage: string;
}
export interface NeumannRow {
  key: string;
  faces: string;
  flux: string;
}
export interface ImpedanceRow {
  key: string;
  faces: string;
  real: string;
  imag: string;
}
export interface WavePortRow {
  key: string;
  portID: string;
  faces: string;
  mode: WavePortMode;
  amplitude: string;
  phase: string;
}
export type Triple = [string, string, string];
export interface ProbeRow {
  key: string;
  name: string;
  point: Triple;
}
export interface VolumeCurrentRow {
  key: string;
  density: Triple;
  /** body index, '' for none (the box alone) */
  region: string;
  boxMin: Triple;
  boxMax: Triple;
  phase: string;
}
export interface AnisotropicRow {
  key: string;
  id: string;
  permittivity: Triple;
  permeability: Triple;
  conductivity: Triple;
}

/** The configuration form's state (spec 001 §2 groups). */
export type Formulation = 'auto' | 'fullwave';

/** The form of every family: the shared and EM fields here, each other family's fields from its folder. */
export interface AnalysisForm extends StructuralFormFields, ThermalFormFields, VibrationFormFields {
  /** the physics chooser: which family's groups the form shows and runs */
  physics: PhysicsFamily;
  /** em: static / frequency domain (transient turns it into em-time); em-eigen: cavity eigenmodes */
  analysisType: 'em' | 'em-eigen';
  /** auto: the engine picks static, quasi-static or full-wave; fullwave forces Maxwell (mode "fullwave") */
  formulation: Formulation;
  eigenNumModes: string;
  eigenFieldMode: string;
  frequencyHz: number;
  tolerance: string;
  maxIterations: string;
  linearSolver: LinearSolver;
  defaultPermittivity: string;
  defaultPermeability: string;
  defaultConductivity: string;
  density: string;
  heatCapacity: string;
  useAnisotropicMaterials: boolean;
  anisotropicMaterials: AnisotropicRow[];
  /** body (region) index → materials-library id */
  bodyMaterials: Record<number, string>;
  /** body index → properties typed over the library material's (structural, thermal) */
  bodyOverrides: Record<number, Partial<Record<MaterialProperty, string>>>;
  dirichletNodes: DirichletNodeRow[];
  dirichletFaceGroups: DirichletFaceGroupRow[];
  neumann: NeumannRow[];
  impedance: ImpedanceRow[];
  referenceNode: string;
  transient: boolean;
  timeStep: string;
  endTime: string;
  timeScheme: TimeScheme;
  pulseShape: PulseShape;
  /** seconds / hertz; 0 or blank = automatic (docs/transient.md) */
  pulseWidth: string;
  pulseDelay: string;
  pulseFrequency: string;
  probes: ProbeRow[];
  volumeCurrents: VolumeCurrentRow[];
  useCurvedMesh: boolean;
  useCurvedGeometry: boolean;
  meshOrder: MeshOrder;
  useRadialPML: boolean;
  pmlThickness: number;
  pmlSigmaMax: string;
  useWavePorts: boolean;
  wavePorts: WavePortRow[];
  portImpedance: string;
  calculateSParameters: boolean;
  extractSParameters: boolean;
  sParamFreqMin: string;
  sParamFreqMax: string;
  sParamNumPoints: string;
  sParamMethod: SParamMethod;
  sParamSweepType: SParamSweepType;
  /** blank: 1e-3 */
  sParamAdaptiveTolerance: string;
  animate: boolean;
  animationFrames: number;
  gridFieldsEnabled: boolean;
  gridResolution: Triple;
  gridPaddingFactor: number;
  verbose: boolean;
  autoRunAnalysis: boolean;
}

const d = ANALYSIS_DEFAULTS;
let keyCounter = 0;

/** A default as the user reads it: 1.2566370614359173e-6 rather than 0.0000012566…; exact round trip. */
export function numberText(n: number): string {
  const abs = Math.abs(n);
  return abs !== 0 && (abs < 1e-3 || abs >= 1e6) ? n.toExponential() : String(n);
}
/** Stable React keys for list rows. */
export const rowKey = (): string => `row-${Date.now().toString(36)}-${(keyCounter++).toString(36)}`;

/** Spec 001 §9 defaults. */
export function defaultAnalysisForm(): AnalysisForm {
  return {
    physics: 'em',
    ...defaultStructuralForm(),
    ...defaultThermalForm(),
    ...defaultVibrationForm(),
    analysisType: 'em',
    formulation: 'auto',
    eigenNumModes: '6',
    eigenFieldMode: '0',
    frequencyHz: d.frequency,
    tolerance: numberText(d.tolerance),
    maxIterations: numberText(d.maxIterations),
    linearSolver: 'auto',
    defaultPermittivity: numberText(d.defaultPermittivity),
    defaultPermeability: numberText(d.defaultPermeability),
    defaultConductivity: numberText(d.defaultConductivity),
    density: numberText(d.density),
    heatCapacity: numberText(d.heatCapacity),
    useAnisotropicMaterials: false,
    anisotropicMaterials: [],
    bodyMaterials: {},
    bodyOverrides: {},
    dirichletNodes: [],
    dirichletFaceGroups: [],
    neumann: [],
    impedance: [],
    referenceNode: '',
    transient: false,
    timeStep: numberText(d.timeStep),
    endTime: numberText(d.endTime),
    timeScheme: 'newmark',
    pulseShape: 'gaussian',
    pulseWidth: '0',
    pulseDelay: '0',
    pulseFrequency: '0',
    probes: [],
    volumeCurrents: [],
    useCurvedMesh: false,
    useCurvedGeometry: false,
    meshOrder: 1,
    useRadialPML: false,
    pmlThickness: d.pmlThickness,
    pmlSigmaMax: numberText(d.pmlSigmaMax),
    useWavePorts: false,
    wavePorts: [],
    portImpedance: numberText(d.portImpedance),
    calculateSParameters: false,
    extractSParameters: false,
    sParamFreqMin: numberText(d.sParamFreqMin),
    sParamFreqMax: numberText(d.sParamFreqMax),
    sParamNumPoints: numberText(d.sParamNumPoints),
    sParamMethod: 'wave_port',
    sParamSweepType: d.sParamSweepType,
    sParamAdaptiveTolerance: numberText(d.sParamAdaptiveTolerance),
    animate: false,
    animationFrames: d.animationFrames,
    gridFieldsEnabled: false,
    gridResolution: d.gridResolution.map(numberText) as Triple,
    gridPaddingFactor: d.gridPaddingFactor,
    verbose: false,
    autoRunAnalysis: false,
  };
}

/** New rows with the spec's starting values (a new impedance boundary starts at 50+0j, §9). */
export const newRows = {
  dirichletNode: (): DirichletNodeRow => ({ key: rowKey(), node: '', voltage: '' }),
  dirichletFaceGroup: (index: number): DirichletFaceGroupRow => ({
    key: rowKey(),
    name: `Terminal ${index + 1}`,
    faces: '',
    voltage: index === 0 ? '0' : '1',
  }),
  neumann: (): NeumannRow => ({ key: rowKey(), faces: '', flux: '0' }),
  impedance: (): ImpedanceRow => ({
    key: rowKey(),
    faces: '',
    real: numberText(d.impedance.real),
    imag: numberText(d.impedance.imag),
  }),
  // Only the first port is driven by default (1 W), as in HFSS: the fields shown are then one
  // incident wave, not a standing wave of all ports. S-parameters drive each port alone regardless.
  wavePort: (index: number): WavePortRow => ({
    key: rowKey(),
    portID: String(index + 1),
    faces: '',
    mode: 'TE10',
    amplitude: index === 0 ? '1' : '0',
    phase: '0',
  }),
  /** `point`: where it starts (config/probe-default.ts puts it inside the model). */
  probe: (index: number, point: [string, string, string] = ['0', '0', '0']): ProbeRow => ({
    key: rowKey(),
    name: `P${index + 1}`,
    point,
  }),
  volumeCurrent: (): VolumeCurrentRow => ({
    key: rowKey(),
    density: ['0', '0', '1'],
    region: '0',
    boxMin: ['', '', ''],
    boxMax: ['', '', ''],
    phase: '0',
  }),
  anisotropic: (index: number): AnisotropicRow => ({
    key: rowKey(),
    id: String(index + 1),
    permittivity: ['1', '1', '1'],
    permeability: ['1', '1', '1'],
    conductivity: ['0', '0', '0'],
  }),
};
