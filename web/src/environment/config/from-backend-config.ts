import {
  ANALYSIS_BOUNDS,
  LINEAR_SOLVERS,
  PULSE_SHAPES,
  S_PARAM_METHODS,
  S_PARAM_SWEEP_TYPES,
  TIME_SCHEMES,
  WAVE_PORT_MODES,
} from '@fieldline/contracts';
import { isRecord } from '../../api/http.ts';
import {
  type AnalysisForm,
  type AnisotropicRow,
  type DirichletFaceGroupRow,
  type DirichletNodeRow,
  defaultAnalysisForm,
  type ImpedanceRow,
  type MeshOrder,
  type NeumannRow,
  numberText,
  type ProbeRow,
  rowKey,
  type Triple,
  type VolumeCurrentRow,
  type WavePortRow,
} from './analysis-form.ts';
import { familyOf } from './families.ts';
import { materialsLibrary } from './materials-library.ts';
import { structuralFromBackend } from './structural/structural-form.ts';
import { thermalFromBackend } from './thermal/thermal-form.ts';
import { vibrationFromBackend } from './vibration/vibration-form.ts';

const b = ANALYSIS_BOUNDS;

export interface RestoredForm {
  form: AnalysisForm;
  /** the settings that could not be read back and were set to the form's defaults (field names) */
  reset: string[];
}

/** The notice shown when some saved settings were unreadable. */
export function restoreNotice(reset: readonly string[]): string | null {
  if (reset.length === 0) return null;
  const shown = reset.slice(0, 6).join(', ');
  const more = reset.length > 6 ? ` and ${reset.length - 6} more` : '';
  return `Some saved run settings could not be read and were reset to their defaults: ${shown}${more}.`;
}

/**
 * The reverse of toBackendConfig: the backend config a result was computed with (results.json
 * `analysis_config`) back into the form's state, so a saved result can be read and run again as it was.
 * Never throws: a missing key keeps the form default silently (older configs), a present but invalid
 * value keeps the default and is named in `reset`.
 */
export function fromBackendConfig(config: unknown): RestoredForm {
  const form = defaultAnalysisForm();
  const reset: string[] = [];
  if (!isRecord(config)) return { form, reset: ['analysis configuration'] };
  const r = new Reader(config, reset);

  const analysisType = config.analysisType;
  form.physics = familyOf(String(analysisType ?? 'em'));
  if (analysisType === 'em-eigen') form.analysisType = 'em-eigen';
  else if (form.physics === 'structural') Object.assign(form, structuralFromBackend(config));
  else if (form.physics === 'thermal') Object.assign(form, thermalFromBackend(config));
  else if (form.physics === 'vibration') Object.assign(form, vibrationFromBackend(config));
  else if (analysisType !== undefined && analysisType !== 'em' && analysisType !== 'em-time')
    reset.push('analysisType');
  form.formulation = config.mode === 'fullwave' ? 'fullwave' : 'auto';
  form.transient = analysisType === 'em-time' || r.bool('transient', false);
  r.text('eigenNumModes', form, 'eigenNumModes', (n) => Number.isInteger(n) && n >= 1);
  r.text('eigenFieldMode', form, 'eigenFieldMode', (n) => Number.isInteger(n) && n >= 0);

  const frequency = r.number('frequency', (n) => n >= b.frequencyHz.min && n <= b.frequencyHz.max);
  if (frequency !== undefined) form.frequencyHz = frequency;
  r.text('tolerance', form, 'tolerance', positive);
  r.text('maxIterations', form, 'maxIterations', (n) => Number.isInteger(n) && n > 0);
  form.linearSolver = r.oneOf('linearSolver', LINEAR_SOLVERS, form.linearSolver);

  r.text('defaultPermittivity', form, 'defaultPermittivity', positive);
  r.text('defaultPermeability', form, 'defaultPermeability', positive);
  r.text('defaultConductivity', form, 'defaultConductivity', (n) => n >= 0);
  r.text('density', form, 'density', positive);
  r.text('heatCapacity', form, 'heatCapacity', positive);
  form.useAnisotropicMaterials = r.bool('useAnisotropicMaterials', false);
  form.anisotropicMaterials = r.rows('anisotropicMaterials', anisotropicRow);
  // Another family restored its own materials (library name + its properties) above.
  if (form.physics === 'em') form.bodyMaterials = bodyMaterials(config.bodyMaterials, reset);

  form.dirichletNodes = dirichletNodes(config.dirichletConditions, reset);
  form.dirichletFaceGroups = r.rows('dirichletFaceConditions', dirichletFaceGroup);
  form.neumann = r.rows('neumannConditions', neumannRow);
  form.impedance = r.rows('impedanceConditions', impedanceRow);
  const reference = config.referenceNode;
  if (typeof reference === 'number' && Number.isInteger(reference) && reference >= 0)
    form.referenceNode = String(reference);
  else if (reference != null) reset.push('referenceNode');

  r.text('timeStep', form, 'timeStep', positive);
  r.text('endTime', form, 'endTime', positive);
  form.timeScheme = r.oneOf('timeScheme', TIME_SCHEMES, form.timeScheme);
  form.pulseShape = r.oneOf('pulseShape', PULSE_SHAPES, form.pulseShape);
  r.text('pulseWidth', form, 'pulseWidth', nonNegative);
  r.text('pulseDelay', form, 'pulseDelay', nonNegative);
  r.text('pulseFrequency', form, 'pulseFrequency', nonNegative);
  form.probes = r.rows('probePoints', probeRow);
  form.volumeCurrents = r.rows('volumeCurrents', volumeCurrentRow);

  form.useCurvedMesh = r.bool('useCurvedMesh', false);
  form.useCurvedGeometry = r.bool('useCurvedGeometry', false);
  const order = r.number('meshOrder', (n) => (b.meshOrder as readonly number[]).includes(n));
  if (order !== undefined) form.meshOrder = order as MeshOrder;
  form.useRadialPML = r.bool('useRadialPML', false);
  const pml = r.number('pmlThickness', (n) => n >= b.pmlThickness.min && n <= b.pmlThickness.max);
  if (pml !== undefined) form.pmlThickness = pml;
  r.text('pmlSigmaMax', form, 'pmlSigmaMax', positive);

  form.useWavePorts = r.bool('useWavePorts', false);
  form.wavePorts = r.rows('wavePorts', wavePortRow);
  r.text('portImpedance', form, 'portImpedance', positive);
  form.calculateSParameters = r.bool('calculateSParameters', false);
  form.extractSParameters = r.bool('extractSParameters', false);
  r.text('sParamFreqMin', form, 'sParamFreqMin', positive);
  r.text('sParamFreqMax', form, 'sParamFreqMax', positive);
  r.text('sParamNumPoints', form, 'sParamNumPoints', (n) => Number.isInteger(n) && n > 0 && n <= 10001);
  form.sParamMethod = r.oneOf('sParamMethod', S_PARAM_METHODS, form.sParamMethod);
  form.sParamSweepType = r.oneOf('sParamSweepType', S_PARAM_SWEEP_TYPES, form.sParamSweepType);
  r.text(
    'sParamAdaptiveTolerance',
    form,
    'sParamAdaptiveTolerance',
    (n) => n >= b.sParamAdaptiveTolerance.min && n <= b.sParamAdaptiveTolerance.max,
  );

  form.animate = r.bool('animate', false);
  const frames = r.number(
    'animationFrames',
    (n) => Number.isInteger(n) && n >= b.animationFrames.min && n <= b.animationFrames.max,
  );
  if (frames !== undefined) form.animationFrames = frames;
  form.gridFieldsEnabled = r.bool('gridFieldsEnabled', false);
  form.gridResolution = gridResolution(config, reset) ?? form.gridResolution;
  const padding = r.number(
    'gridPaddingFactor',
    (n) => n >= b.gridPaddingFactor.min && n <= b.gridPaddingFactor.max,
  );
  if (padding !== undefined) form.gridPaddingFactor = padding;
  form.verbose = r.bool('verbose', false);
  form.autoRunAnalysis = r.bool('autoRunAnalysis', false);
  return { form, reset };
}

const positive = (n: number) => n > 0;
const nonNegative = (n: number) => n >= 0;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

type TextKeys = {
  [K in keyof AnalysisForm]: AnalysisForm[K] extends string ? K : never;
}[keyof AnalysisForm];

/** Reads one config key at a time; invalid values are named in `reset` and leave the default. */
class Reader {
  constructor(
    private readonly config: Record<string, unknown>,
    private readonly reset: string[],
  ) {}

  number(key: string, valid: (n: number) => boolean): number | undefined {
    const v = this.config[key];
    if (v === undefined) return undefined;
    if (isNumber(v) && valid(v)) return v;
    this.reset.push(key);
    return undefined;
  }

  text(key: string, form: AnalysisForm, field: TextKeys, valid: (n: number) => boolean): void {
    const v = this.number(key, valid);
    if (v !== undefined) form[field] = numberText(v) as never;
  }

  bool(key: string, fallback: boolean): boolean {
    const v = this.config[key];
    if (v === undefined) return fallback;
    if (typeof v === 'boolean') return v;
    this.reset.push(key);
    return fallback;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
    const v = this.config[key];
    if (v === undefined) return fallback;
    if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
    this.reset.push(key);
    return fallback;
  }

  /** A list of rows; an unreadable entry is dropped and named (`wavePorts[2]`), the others kept. */
  rows<R>(key: string, toRow: (entry: Record<string, unknown>, index: number) => R | null): R[] {
    const v = this.config[key];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      this.reset.push(key);
      return [];
    }
    return v.flatMap((entry, i) => {
      const row = isRecord(entry) ? toRow(entry, i) : null;
      if (row === null) this.reset.push(`${key}[${i + 1}]`);
      return row === null ? [] : [row];
    });
  }
}

/** Face ids as the form's comma-separated text; null when not a list of positive integers. */
function faceText(faces: unknown): string | null {
  if (!Array.isArray(faces) || faces.length === 0) return null;
  if (!faces.every((f) => Number.isInteger(f) && (f as number) > 0)) return null;
  return faces.join(', ');
}

const numText = (v: unknown, fallback: string): string => (isNumber(v) ? numberText(v) : fallback);
const idText = (v: unknown, index: number): string =>
  typeof v === 'number' || (typeof v === 'string' && v.trim() !== '') ? String(v) : String(index + 1);

function tripleText(v: unknown): Triple | null {
  if (!Array.isArray(v) || v.length !== 3 || !v.every(isNumber)) return null;
  return v.map((x) => numberText(x)) as Triple;
}

function dirichletFaceGroup(e: Record<string, unknown>): DirichletFaceGroupRow | null {
  const faces = faceText(e.faces);
  if (faces === null || !isNumber(e.voltage)) return null;
  const name = typeof e.name === 'string' ? e.name : '';
  return { key: rowKey(), name, faces, voltage: numberText(e.voltage) };
}

function neumannRow(e: Record<string, unknown>): NeumannRow | null {
  const faces = faceText(e.faces);
  return faces === null ? null : { key: rowKey(), faces, flux: numText(e.flux, '0') };
}

function impedanceRow(e: Record<string, unknown>): ImpedanceRow | null {
  const faces = faceText(e.faces);
  const z = isRecord(e.impedance) ? e.impedance : {};
  if (faces === null) return null;
  return { key: rowKey(), faces, real: numText(z.real, '50'), imag: numText(z.imag, '0') };
}

function wavePortRow(e: Record<string, unknown>, i: number): WavePortRow | null {
  const faces = faceText(e.faces);
  const mode = WAVE_PORT_MODES.find((m) => m === e.mode);
  if (faces === null || !mode) return null;
  return {
    key: rowKey(),
    portID: idText(e.portID, i),
    faces,
    mode,
    amplitude: numText(e.amplitude, '1'),
    phase: numText(e.phase, '0'),
  };
}

function probeRow(e: Record<string, unknown>, i: number): ProbeRow | null {
  const point = tripleText(e.point);
  if (!point) return null;
  return { key: rowKey(), name: typeof e.name === 'string' ? e.name : `P${i + 1}`, point };
}

function volumeCurrentRow(e: Record<string, unknown>): VolumeCurrentRow | null {
  const density = tripleText(e.density);
  if (!density) return null;
  const region = Number.isInteger(e.region) && (e.region as number) >= 0 ? String(e.region) : '';
  const blank: Triple = ['', '', ''];
  return {
    key: rowKey(),
    density,
    region,
    boxMin: tripleText(e.boxMin) ?? blank,
    boxMax: tripleText(e.boxMax) ?? blank,
    phase: numText(e.phase, '0'),
  };
}

function anisotropicRow(e: Record<string, unknown>, i: number): AnisotropicRow | null {
  const permittivity = tripleText(e.permittivity);
  const permeability = tripleText(e.permeability);
  const conductivity = tripleText(e.conductivity);
  if (!permittivity || !permeability || !conductivity) return null;
  return { key: rowKey(), id: idText(e.id, i), permittivity, permeability, conductivity };
}

function dirichletNodes(v: unknown, reset: string[]): DirichletNodeRow[] {
  if (v === undefined || v === null) return [];
  if (!isRecord(v)) {
    reset.push('dirichletConditions');
    return [];
  }
  return Object.entries(v).flatMap(([node, voltage]) => {
    const n = Number(node);
    if (!Number.isInteger(n) || n < 0 || !isNumber(voltage)) {
      reset.push(`dirichletConditions[${node}]`);
      return [];
    }
    return [{ key: rowKey(), node: String(n), voltage: numberText(voltage) }];
  });
}

/** The backend carries each body's material properties; the form names a library material. */
function bodyMaterials(v: unknown, reset: string[]): Record<number, string> {
  const out: Record<number, string> = {};
  if (v === undefined || v === null) return out;
  if (!Array.isArray(v)) {
    reset.push('bodyMaterials');
    return out;
  }
  v.forEach((entry, i) => {
    const match =
      isRecord(entry) && Number.isInteger(entry.region)
        ? materialsLibrary().find(
            (m) =>
              m.relativePermittivity === entry.relativePermittivity &&
              m.relativePermeability === entry.relativePermeability &&
              m.conductivity === entry.conductivity &&
              m.lossTangent === entry.lossTangent,
          )
        : undefined;
    if (match && isRecord(entry)) out[entry.region as number] = match.id;
    else reset.push(`bodyMaterials[${i + 1}]`);
  });
  return out;
}

function gridResolution(config: Record<string, unknown>, reset: string[]): Triple | null {
  const valid = (n: unknown) =>
    isNumber(n) && Number.isInteger(n) && n >= b.gridResolution.min && n <= b.gridResolution.max;
  const list = config.gridResolution;
  if (Array.isArray(list) && list.length === 3 && list.every(valid)) return list.map(String) as Triple;
  const axes = [config.gridResolutionX, config.gridResolutionY, config.gridResolutionZ];
  if (axes.every(valid)) return axes.map(String) as Triple;
  if (list !== undefined || axes.some((a) => a !== undefined)) reset.push('gridResolution');
  return null;
}
