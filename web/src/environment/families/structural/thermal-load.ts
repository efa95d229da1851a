import type { AnalysisConfigInput } from '@fieldline/contracts';
import type { AnalysisForm } from '../../config/analysis-form.ts';
import { bodyMaterialEntries, FAMILY_DEFAULT_MATERIAL } from '../../config/common/body-materials.ts';
import { parseNumber } from '../../config/numbers.ts';
import type { BodyRef } from '../../config/to-backend-config.ts';
import { STRUCTURAL_PROPERTIES } from './structural-form.ts';

/** Where a structural run's temperature comes from (docs/multiphysics.md §7): none, the whole model at one
 * temperature (`temperatureLoad: {uniform}`), or a completed thermal job of this model (`fieldsFrom`). */
export type TemperatureSource = 'none' | 'uniform' | 'job';

export interface StructuralThermalLoadFields {
  structuralTemperatureFrom: TemperatureSource;
  /** K, the uniform temperature */
  structuralTemperature: string;
  /** the thermal job whose temperature loads the run */
  structuralTemperatureJob: string;
  /** K, the stress-free temperature T_ref */
  structuralReferenceTemperature: string;
}

export const DEFAULT_REFERENCE_TEMPERATURE = 293.15;

export function defaultStructuralThermalLoad(): StructuralThermalLoadFields {
  return {
    structuralTemperatureFrom: 'none',
    structuralTemperature: '373.15',
    structuralTemperatureJob: '',
    structuralReferenceTemperature: String(DEFAULT_REFERENCE_TEMPERATURE),
  };
}

/** True when the form loads the run thermally (a uniform temperature, or a chosen thermal job). */
export function hasThermalLoad(form: StructuralThermalLoadFields): boolean {
  if (form.structuralTemperatureFrom === 'uniform') return true;
  return form.structuralTemperatureFrom === 'job' && form.structuralTemperatureJob !== '';
}

/** The thermal load keys of a structural run, and each body's expansion coefficient beside its structural
 * properties; nothing when the run has no thermal load. */
export function thermalLoadToBackend(
  form: AnalysisForm,
  bodies: readonly BodyRef[],
): Partial<AnalysisConfigInput> {
  if (!hasThermalLoad(form)) return {};
  const out: Partial<AnalysisConfigInput> = {
    referenceTemperature: parseNumber(form.structuralReferenceTemperature) ?? DEFAULT_REFERENCE_TEMPERATURE,
    bodyMaterials: bodyMaterialEntries(
      bodies.length > 0 ? bodies : [{ region: 0, name: 'Body 1' }],
      form.bodyMaterials,
      form.bodyOverrides,
      [...STRUCTURAL_PROPERTIES, 'thermalExpansion'],
      FAMILY_DEFAULT_MATERIAL,
    ) as AnalysisConfigInput['bodyMaterials'],
  };
  if (form.structuralTemperatureFrom === 'uniform') {
    out.temperatureLoad = {
      uniform: parseNumber(form.structuralTemperature) ?? DEFAULT_REFERENCE_TEMPERATURE,
    };
  } else {
    out.fieldsFrom = { jobId: form.structuralTemperatureJob, fields: ['temperature'] };
  }
  return out;
}

/** The thermal load fields back from a saved structural config. */
export function thermalLoadFromBackend(config: Record<string, unknown>): StructuralThermalLoadFields {
  const out = defaultStructuralThermalLoad();
  const load = config.temperatureLoad as { uniform?: unknown } | undefined;
  const chained = config.fieldsFrom as { jobId?: unknown; fields?: unknown } | undefined;
  if (load && typeof load.uniform === 'number') {
    out.structuralTemperatureFrom = 'uniform';
    out.structuralTemperature = String(load.uniform);
  } else if (
    chained &&
    typeof chained.jobId === 'string' &&
    Array.isArray(chained.fields) &&
    chained.fields.includes('temperature')
  ) {
    out.structuralTemperatureFrom = 'job';
    out.structuralTemperatureJob = chained.jobId;
  }
  if (typeof config.referenceTemperature === 'number')
    out.structuralReferenceTemperature = String(config.referenceTemperature);
  return out;
}
