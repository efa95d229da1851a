import type { AnalysisConfigInput } from '@fieldline/contracts';
import { type AnalysisForm, rowKey } from '../../config/analysis-form.ts';
import {
  bodyMaterialEntries,
  FAMILY_DEFAULT_MATERIAL,
  type MaterialProperty,
  restoreBodyMaterials,
} from '../../config/common/body-materials.ts';
import { parseFaceList } from '../../config/face-list.ts';
import { parseInteger, parseNumber } from '../../config/numbers.ts';
import type { BodyRef } from '../../config/to-backend-config.ts';
import { assumedIds, inductionMaterialDefaults, inductionOverrides } from './induction-materials.ts';

export type ThermalConditionKind = 'temperature' | 'flux' | 'convection' | 'radiation';

/** A condition on picked faces; `value` is T (K), q (W/m²), h (W/m²·K) or ε; `ambient` in K. */
export interface ThermalConditionRow {
  key: string;
  name: string;
  kind: ThermalConditionKind;
  faces: string;
  value: string;
  ambient: string;
}

/** A heat source in a body: total power (W) or power density (W/m³). */
export interface HeatSourceRow {
  key: string;
  region: string;
  kind: 'power' | 'density';
  value: string;
}

export interface ThermalFormFields {
  thermalConditions: ThermalConditionRow[];
  heatSources: HeatSourceRow[];
  jouleHeating: boolean;
  /** heat by the eddy-current losses of the EM family's coils and solid conductors (docs/magnetics.md §8) */
  inductionHeating: boolean;
  thermalTransient: boolean;
  /** seconds */
  thermalTimeStep: string;
  thermalEndTime: string;
  thermalScheme: 'implicit' | 'newmark';
  /** K */
  initialTemperature: string;
  /** a transient's start (docs/multiphysics.md §7): the uniform initial temperature, or another completed
   * thermal job's temperature (`fieldsFrom`; a transient source's frame: blank = its final state, an index
   * or "last") */
  thermalInitialFrom: 'value' | 'job';
  thermalInitialJob: string;
  thermalInitialFrame: string;
}

declare module '../../config/analysis-form.ts' {
  interface FamilyForms {
    thermal: ThermalFormFields;
  }
}

export const THERMAL_PROPERTIES = ['thermalConductivity', 'density', 'heatCapacity'] as const;
/** Joule heating also needs each body's electrical conductivity; induction heating its permeability too (the
 * skin depth). A body's library material gives both; with induction heating a body without a choice is what
 * induction-materials.ts assumes (a winding copper, air air, the workpiece steel), not steel throughout. */
const JOULE_PROPERTIES = [...THERMAL_PROPERTIES, 'conductivity'] as const;
const INDUCTION_PROPERTIES = [...THERMAL_PROPERTIES, 'conductivity', 'relativePermeability'] as const;

/** The body properties a thermal run with these heating switches reads. */
export function heatingProperties(heating: {
  jouleHeating?: unknown;
  inductionHeating?: unknown;
}): readonly MaterialProperty[] {
  if (heating.inductionHeating === true) return INDUCTION_PROPERTIES;
  return heating.jouleHeating === true ? JOULE_PROPERTIES : THERMAL_PROPERTIES;
}

export const CONDITION_UNITS: Record<ThermalConditionKind, { label: string; unit: string; start: string }> = {
  temperature: { label: 'Temperature', unit: 'K', start: '293.15' },
  flux: { label: 'Heat flux in', unit: 'W/m²', start: '1000' },
  convection: { label: 'Coefficient h', unit: 'W/(m²·K)', start: '10' },
  radiation: { label: 'Emissivity', unit: '', start: '0.9' },
};

export function defaultThermalForm(): ThermalFormFields {
  return {
    thermalConditions: [],
    heatSources: [],
    jouleHeating: false,
    inductionHeating: false,
    thermalTransient: false,
    thermalTimeStep: '1',
    thermalEndTime: '100',
    thermalScheme: 'newmark',
    initialTemperature: '293.15',
    thermalInitialFrom: 'value',
    thermalInitialJob: '',
    thermalInitialFrame: '',
  };
}

export const newThermalRows = {
  condition: (index: number, kind: ThermalConditionKind = 'convection'): ThermalConditionRow => ({
    key: rowKey(),
    name: `Condition ${index + 1}`,
    kind,
    faces: '',
    value: CONDITION_UNITS[kind].start,
    ambient: '293.15',
  }),
  source: (): HeatSourceRow => ({ key: rowKey(), region: '0', kind: 'power', value: '1' }),
};

/** The thermal keys of the backend config (docs/thermal.md); rows without faces are left out. */
export function thermalToBackend(
  form: AnalysisForm,
  bodies: readonly BodyRef[],
): Partial<AnalysisConfigInput> {
  const temperatureConditions: NonNullable<AnalysisConfigInput['temperatureConditions']> = [];
  const neumannConditions: NonNullable<AnalysisConfigInput['neumannConditions']> = [];
  const convectionConditions: NonNullable<AnalysisConfigInput['convectionConditions']> = [];
  const radiationConditions: NonNullable<AnalysisConfigInput['radiationConditions']> = [];
  for (const row of form.thermalConditions) {
    const faces = parseFaceList(row.faces);
    const value = parseNumber(row.value);
    if (faces.length === 0 || value === undefined) continue;
    const ambient = parseNumber(row.ambient) ?? 293.15;
    if (row.kind === 'temperature') temperatureConditions.push({ faces, temperature: value, name: row.name });
    if (row.kind === 'flux') neumannConditions.push({ faces, flux: value, name: row.name });
    if (row.kind === 'convection')
      convectionConditions.push({ faces, coefficient: value, ambientTemperature: ambient, name: row.name });
    if (row.kind === 'radiation')
      radiationConditions.push({ faces, emissivity: value, ambientTemperature: ambient, name: row.name });
  }
  const heatSources = form.heatSources.flatMap((s) => {
    const value = parseNumber(s.value);
    const region = parseInteger(s.region) ?? 0;
    if (value === undefined) return [];
    return [s.kind === 'power' ? { region, power: value } : { region, powerDensity: value }];
  });
  const list = bodies.length > 0 ? bodies : [{ region: 0, name: 'Body 1' }];
  const config: Partial<AnalysisConfigInput> = {
    analysisType: form.thermalTransient ? 'thermal-time' : 'thermal',
    transient: false,
    temperatureConditions,
    neumannConditions,
    convectionConditions,
    radiationConditions,
    heatSources,
    jouleHeating: form.jouleHeating,
    inductionHeating: form.inductionHeating,
    bodyMaterials: bodyMaterialEntries(
      list,
      form.bodyMaterials,
      form.inductionHeating ? inductionOverrides(form) : form.bodyOverrides,
      heatingProperties(form),
      FAMILY_DEFAULT_MATERIAL,
      assumedIds(inductionMaterialDefaults(form, list)),
    ) as AnalysisConfigInput['bodyMaterials'],
    initialTemperature: parseNumber(form.initialTemperature) ?? 293.15,
  };
  if (form.thermalTransient) {
    config.timeStep = parseNumber(form.thermalTimeStep) ?? 1;
    config.endTime = parseNumber(form.thermalEndTime) ?? 100;
    config.timeScheme = form.thermalScheme;
    const chained = initialFieldsFrom(form);
    if (chained) config.fieldsFrom = chained;
  }
  if (!form.jouleHeating) config.dirichletFaceConditions = [];
  return config;
}

/** A transient's start from another job's temperature: the job and, when given, the frame. */
function initialFieldsFrom(form: ThermalFormFields): AnalysisConfigInput['fieldsFrom'] | undefined {
  if (form.thermalInitialFrom !== 'job' || form.thermalInitialJob === '') return undefined;
  const text = form.thermalInitialFrame.trim().toLowerCase();
  const index = /^\d+$/.test(text) ? Number(text) : undefined;
  return {
    jobId: form.thermalInitialJob,
    fields: ['temperature'],
    ...(text === 'last' ? { frame: 'last' as const } : index !== undefined ? { frame: index } : {}),
  };
}

/** The thermal rows back from a saved config (the results' analysis_config). */
export function thermalFromBackend(
  config: Record<string, unknown>,
): ThermalFormFields & Pick<AnalysisForm, 'bodyMaterials' | 'bodyOverrides'> {
  const out = {
    ...defaultThermalForm(),
    ...restoreBodyMaterials(config.bodyMaterials, heatingProperties(config)),
  };
  const list = (v: unknown) => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);
  const text = (v: unknown, fallback = '') => (typeof v === 'number' ? String(v) : fallback);
  const faces = (v: unknown) => (Array.isArray(v) ? v.join(', ') : '');
  const add = (kind: ThermalConditionKind, c: Record<string, unknown>, value: unknown) =>
    out.thermalConditions.push({
      ...newThermalRows.condition(out.thermalConditions.length, kind),
      name: typeof c.name === 'string' ? c.name : `Condition ${out.thermalConditions.length + 1}`,
      faces: faces(c.faces),
      value: text(value),
      ambient: text(c.ambientTemperature, '293.15'),
    });
  for (const c of list(config.temperatureConditions)) add('temperature', c, c.temperature);
  for (const c of list(config.neumannConditions)) add('flux', c, c.flux);
  for (const c of list(config.convectionConditions)) add('convection', c, c.coefficient);
  for (const c of list(config.radiationConditions)) add('radiation', c, c.emissivity);
  for (const s of list(config.heatSources)) {
    out.heatSources.push({
      ...newThermalRows.source(),
      region: text(s.region, '0'),
      kind: s.power !== undefined ? 'power' : 'density',
      value: text(s.power ?? s.powerDensity),
    });
  }
  out.jouleHeating = config.jouleHeating === true;
  out.inductionHeating = config.inductionHeating === true;
  out.thermalTransient = config.analysisType === 'thermal-time' || config.transient === true;
  if (out.thermalTransient) {
    out.thermalTimeStep = text(config.timeStep, out.thermalTimeStep);
    out.thermalEndTime = text(config.endTime, out.thermalEndTime);
    out.thermalScheme = config.timeScheme === 'implicit' ? 'implicit' : 'newmark';
  }
  out.initialTemperature = text(config.initialTemperature, out.initialTemperature);
  const chained = config.fieldsFrom as { jobId?: unknown; fields?: unknown; frame?: unknown } | undefined;
  if (
    chained &&
    typeof chained.jobId === 'string' &&
    Array.isArray(chained.fields) &&
    chained.fields.includes('temperature')
  ) {
    out.thermalInitialFrom = 'job';
    out.thermalInitialJob = chained.jobId;
    out.thermalInitialFrame =
      typeof chained.frame === 'number' || chained.frame === 'last' ? String(chained.frame) : '';
  }
  return out;
}
