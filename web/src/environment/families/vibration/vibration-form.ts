import type { AnalysisConfigInput } from '@fieldline/contracts';
import type { AnalysisForm } from '../../config/analysis-form.ts';
import { parseNumber } from '../../config/numbers.ts';
import type { BodyRef } from '../../config/to-backend-config.ts';
import {
  STRUCTURAL_PROPERTIES,
  structuralFromBackend,
  structuralToBackend,
} from '../structural/structural-form.ts';

/** The vibration form: the structural supports, loads and materials (its folder), plus these settings. */
export interface VibrationFormFields {
  vibrationKind: 'modal' | 'harmonic';
  modalNumModes: string;
  /** Hz, blank = from 0 */
  modalMinFrequency: string;
  harmonicFreqMin: string;
  harmonicFreqMax: string;
  harmonicNumPoints: string;
  dampingRatio: string;
  /** Rayleigh damping C = αM + βK (1/s and s); blank or 0 = the damping ratio applies */
  rayleighAlpha: string;
  rayleighBeta: string;
  harmonicMethod: 'modal' | 'full';
  /** a modal run's prestress (docs/multiphysics.md §7): none, the static state of this form's supports and
   * loads (`prestress: true`), or a completed structural job's stress (`fieldsFrom`) */
  vibrationPrestress: 'none' | 'loads' | 'job';
  vibrationPrestressJob: string;
}

declare module '../../config/analysis-form.ts' {
  interface FamilyForms {
    vibration: VibrationFormFields;
  }
}

export function defaultVibrationForm(): VibrationFormFields {
  return {
    vibrationKind: 'modal',
    modalNumModes: '6',
    modalMinFrequency: '',
    harmonicFreqMin: '0',
    harmonicFreqMax: '1000',
    harmonicNumPoints: '201',
    dampingRatio: '0.02',
    rayleighAlpha: '',
    rayleighBeta: '',
    harmonicMethod: 'modal',
    vibrationPrestress: 'none',
    vibrationPrestressJob: '',
  };
}

const int = (text: string, fallback: number, lo: number, hi: number) => {
  const v = Math.round(parseNumber(text) ?? fallback);
  return Math.min(hi, Math.max(lo, v));
};

export function vibrationToBackend(
  form: AnalysisForm,
  bodies: readonly BodyRef[],
): Partial<AnalysisConfigInput> {
  const structural = structuralToBackend(form, bodies);
  const config: Partial<AnalysisConfigInput> = {
    ...structural,
    analysisType: form.vibrationKind,
    transient: false,
    modalNumModes: int(form.modalNumModes, 6, 1, 50),
    dampingRatio: parseNumber(form.dampingRatio) ?? 0.02,
  };
  // Modes from a frequency up are a modal search; a harmonic sum without the lowest modes would be wrong.
  const minF = parseNumber(form.modalMinFrequency);
  if (form.vibrationKind === 'modal' && minF !== undefined && minF > 0) config.modalMinFrequency = minF;
  if (form.vibrationKind === 'harmonic') {
    config.harmonicFreqMin = parseNumber(form.harmonicFreqMin) ?? 0;
    config.harmonicFreqMax = parseNumber(form.harmonicFreqMax) ?? 1000;
    config.harmonicNumPoints = int(form.harmonicNumPoints, 201, 2, 2001);
    config.harmonicMethod = form.harmonicMethod;
    const alpha = parseNumber(form.rayleighAlpha);
    const beta = parseNumber(form.rayleighBeta);
    if (alpha !== undefined && alpha > 0) config.rayleighAlpha = alpha;
    if (beta !== undefined && beta > 0) config.rayleighBeta = beta;
  } else if (form.vibrationPrestress === 'loads') {
    // the loads prestress the part: a static solve first, then the modes of K + K_σ
    config.prestress = true;
  } else {
    // A modal run has no loads (the structural form's loads stay in the form for a harmonic run).
    config.forceLoads = [];
    config.pressureLoads = [];
    config.gravity = [0, 0, 0];
    if (form.vibrationPrestress === 'job' && form.vibrationPrestressJob !== '')
      config.fieldsFrom = { jobId: form.vibrationPrestressJob, fields: ['stress'] };
  }
  return config;
}

export function vibrationFromBackend(config: Record<string, unknown>): Partial<AnalysisForm> {
  const text = (v: unknown, fallback: string) => (typeof v === 'number' ? String(v) : fallback);
  const d = defaultVibrationForm();
  return {
    ...structuralFromBackend(config),
    vibrationKind: config.analysisType === 'harmonic' ? 'harmonic' : 'modal',
    modalNumModes: text(config.modalNumModes, d.modalNumModes),
    modalMinFrequency: text(config.modalMinFrequency, ''),
    harmonicFreqMin: text(config.harmonicFreqMin, d.harmonicFreqMin),
    harmonicFreqMax: text(config.harmonicFreqMax, d.harmonicFreqMax),
    harmonicNumPoints: text(config.harmonicNumPoints, d.harmonicNumPoints),
    dampingRatio: text(config.dampingRatio, d.dampingRatio),
    rayleighAlpha: text(config.rayleighAlpha, ''),
    rayleighBeta: text(config.rayleighBeta, ''),
    harmonicMethod: config.harmonicMethod === 'full' ? 'full' : 'modal',
    ...prestressFromBackend(config),
  };
}

function prestressFromBackend(
  config: Record<string, unknown>,
): Pick<VibrationFormFields, 'vibrationPrestress' | 'vibrationPrestressJob'> {
  const chained = config.fieldsFrom as { jobId?: unknown; fields?: unknown } | undefined;
  if (config.prestress === true) return { vibrationPrestress: 'loads', vibrationPrestressJob: '' };
  if (
    chained &&
    typeof chained.jobId === 'string' &&
    Array.isArray(chained.fields) &&
    chained.fields.includes('stress')
  )
    return { vibrationPrestress: 'job', vibrationPrestressJob: chained.jobId };
  return { vibrationPrestress: 'none', vibrationPrestressJob: '' };
}

export { STRUCTURAL_PROPERTIES as VIBRATION_PROPERTIES };
