import {
  ANALYSIS_DEFAULTS,
  type PULSE_SHAPES,
  type S_PARAM_METHODS,
  type S_PARAM_SWEEP_TYPES,
  type TIME_SCHEMES,
  type WAVE_PORT_MODES,
} from '@fieldline/contracts';
import { numberText, rowKey, type Triple } from '../../config/analysis-form.ts';
import { defaultMagneticsForm, type MagneticsFormFields } from './magnetics/magnetics-form.ts';

export type WavePortMode = (typeof WAVE_PORT_MODES)[number];
export type SParamMethod = (typeof S_PARAM_METHODS)[number];
export type SParamSweepType = (typeof S_PARAM_SWEEP_TYPES)[number];
export type TimeScheme = (typeof TIME_SCHEMES)[number];
export type PulseShape = (typeof PULSE_SHAPES)[number];
/** auto: the engine picks static, quasi-static or full-wave; fullwave forces Maxwell (mode "fullwave") */
export type Formulation = 'auto' | 'fullwave';

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
  /** the user chose the mode; otherwise it follows the picked face (TEM on a coaxial annulus) */
  modeChosen?: boolean;
  amplitude: string;
  phase: string;
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

/** The electromagnetic family's form fields (spec 001 §2 groups; the magnetics fields, docs/magnetics.md). */
export interface EmFormFields extends MagneticsFormFields {
  /** em: static / frequency domain (transient turns it into em-time); em-eigen: cavity eigenmodes;
   * magnetostatic and eddy-current: coils, magnets and iron */
  analysisType: 'em' | 'em-eigen' | 'magnetostatic' | 'eddy-current';
  formulation: Formulation;
  eigenNumModes: string;
  eigenFieldMode: string;
  frequencyHz: number;
  defaultPermittivity: string;
  defaultPermeability: string;
  defaultConductivity: string;
  useAnisotropicMaterials: boolean;
  anisotropicMaterials: AnisotropicRow[];
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
  volumeCurrents: VolumeCurrentRow[];
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
}

declare module '../../config/analysis-form.ts' {
  interface FamilyForms {
    em: EmFormFields;
  }
}

const d = ANALYSIS_DEFAULTS;

/** Spec 001 §9 defaults. */
export function defaultEmForm(): EmFormFields {
  return {
    analysisType: 'em',
    formulation: 'auto',
    eigenNumModes: '6',
    eigenFieldMode: '0',
    frequencyHz: d.frequency,
    defaultPermittivity: numberText(d.defaultPermittivity),
    defaultPermeability: numberText(d.defaultPermeability),
    defaultConductivity: numberText(d.defaultConductivity),
    useAnisotropicMaterials: false,
    anisotropicMaterials: [],
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
    volumeCurrents: [],
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
    ...defaultMagneticsForm(),
  };
}

/** New rows with the spec's starting values (a new impedance boundary starts at 50+0j, §9). */
export const newEmRows = {
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
  volumeCurrent: (): VolumeCurrentRow => ({
    key: rowKey(),
    density: ['0', '0', '1'],
    region: '0',
    boxMin: ['', '', ''],
    boxMax: ['', '', ''],
    phase: '0',
  }),
  // `id` names the body as bodyMaterials' region does: its index from 0 (or its name).
  anisotropic: (index: number): AnisotropicRow => ({
    key: rowKey(),
    id: String(index),
    permittivity: ['1', '1', '1'],
    permeability: ['1', '1', '1'],
    conductivity: ['0', '0', '0'],
  }),
};
