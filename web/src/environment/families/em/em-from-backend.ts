import {
  ANALYSIS_BOUNDS,
  PULSE_SHAPES,
  S_PARAM_METHODS,
  S_PARAM_SWEEP_TYPES,
  TIME_SCHEMES,
  WAVE_PORT_MODES,
} from '@fieldline/contracts';
import { isRecord } from '../../../api/http.ts';
import { numberText, rowKey, type Triple } from '../../config/analysis-form.ts';
import {
  type ConfigReader,
  faceText,
  isNumber,
  nonNegative,
  numText,
  positive,
  tripleText,
} from '../../config/common/config-reader.ts';
import { materialsLibrary } from '../../config/materials-library.ts';
import {
  type AnisotropicRow,
  type DirichletFaceGroupRow,
  type DirichletNodeRow,
  defaultEmForm,
  type EmFormFields,
  type ImpedanceRow,
  type NeumannRow,
  type VolumeCurrentRow,
  type WavePortRow,
} from './em-form.ts';
import { magneticsFromBackend } from './magnetics/magnetics-from-backend.ts';
import { isMagneticType } from './magnetics/magnetics-to-backend.ts';

const b = ANALYSIS_BOUNDS;

type Conduction = Pick<
  EmFormFields,
  'defaultPermittivity' | 'defaultConductivity' | 'dirichletNodes' | 'dirichletFaceGroups' | 'referenceNode'
>;

/** The DC conduction fields (voltages, terminals, reference node, σ) back; Joule heating reads them too. */
export function emConductionFromBackend(r: ConfigReader): Conduction {
  const defaults = defaultEmForm();
  const out: Conduction = {
    defaultPermittivity: defaults.defaultPermittivity,
    defaultConductivity: defaults.defaultConductivity,
    dirichletNodes: dirichletNodes(r.config.dirichletConditions, r.reset),
    dirichletFaceGroups: r.rows('dirichletFaceConditions', dirichletFaceGroup),
    referenceNode: '',
  };
  r.text('defaultPermittivity', out, 'defaultPermittivity', positive);
  r.text('defaultConductivity', out, 'defaultConductivity', nonNegative);
  const reference = r.config.referenceNode;
  if (typeof reference === 'number' && Number.isInteger(reference) && reference >= 0)
    out.referenceNode = String(reference);
  else if (reference != null) r.reset.push('referenceNode');
  return out;
}

/** The reverse of emToBackend: a saved EM config back into the EM fields of the form. */
export function emFromBackend(
  r: ConfigReader,
): Partial<EmFormFields> & { bodyMaterials: Record<number, string> } {
  const config = r.config;
  const form = defaultEmForm();
  const analysisType = config.analysisType;
  if (isMagneticType(analysisType))
    return { ...form, analysisType, ...magneticsFromBackend(r), bodyMaterials: {} };
  if (analysisType === 'em-eigen') form.analysisType = 'em-eigen';
  form.formulation = config.mode === 'fullwave' ? 'fullwave' : 'auto';
  form.transient = analysisType === 'em-time' || r.bool('transient', false);
  r.text('eigenNumModes', form, 'eigenNumModes', (n) => Number.isInteger(n) && n >= 1);
  r.text('eigenFieldMode', form, 'eigenFieldMode', (n) => Number.isInteger(n) && n >= 0);

  const frequency = r.number('frequency', (n) => n >= b.frequencyHz.min && n <= b.frequencyHz.max);
  if (frequency !== undefined) form.frequencyHz = frequency;

  r.text('defaultPermeability', form, 'defaultPermeability', positive);
  form.useAnisotropicMaterials = r.bool('useAnisotropicMaterials', false);
  form.anisotropicMaterials = r.rows('anisotropicMaterials', anisotropicRow);
  const bodyMaterials = libraryMaterials(config.bodyMaterials, r.reset);

  Object.assign(form, emConductionFromBackend(r));
  form.neumann = r.rows('neumannConditions', neumannRow);
  form.impedance = r.rows('impedanceConditions', impedanceRow);

  r.text('timeStep', form, 'timeStep', positive);
  r.text('endTime', form, 'endTime', positive);
  form.timeScheme = r.oneOf('timeScheme', TIME_SCHEMES, form.timeScheme);
  form.pulseShape = r.oneOf('pulseShape', PULSE_SHAPES, form.pulseShape);
  r.text('pulseWidth', form, 'pulseWidth', nonNegative);
  r.text('pulseDelay', form, 'pulseDelay', nonNegative);
  r.text('pulseFrequency', form, 'pulseFrequency', nonNegative);
  form.volumeCurrents = r.rows('volumeCurrents', volumeCurrentRow);

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
  return { ...form, bodyMaterials };
}

/** A saved id as text, else `fallback` (port ids count from 1; anisotropic rows name a body, from 0). */
const idText = (v: unknown, fallback: number): string =>
  typeof v === 'number' || (typeof v === 'string' && v.trim() !== '') ? String(v) : String(fallback);

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
    portID: idText(e.portID, i + 1),
    faces,
    mode,
    amplitude: numText(e.amplitude, '1'),
    phase: numText(e.phase, '0'),
  };
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

/** The backend carries each body's material properties; the EM form names a library material. */
function libraryMaterials(v: unknown, reset: string[]): Record<number, string> {
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
