import type { AnalysisConfigInput } from '@fieldline/contracts';
import type { AnalysisForm } from '../../config/analysis-form.ts';
import { bodyMaterialEntries, FAMILY_DEFAULT_MATERIAL } from '../../config/common/body-materials.ts';
import { parseNumber } from '../../config/numbers.ts';
import type { BodyRef } from '../../config/to-backend-config.ts';
import type { ToBackendContext } from '../family-module.ts';
import { structuralToBackend } from '../structural/structural-form.ts';
import thermal from '../thermal/index.ts';
import { assumedIds, inductionMaterialDefaults } from '../thermal/induction-materials.ts';

/** Thermal stress's own field: the stress-free temperature (K); the rest is the thermal and structural forms'. */
export interface ThermalStressFormFields {
  thermalStressReference: string;
}

declare module '../../config/analysis-form.ts' {
  interface FamilyForms {
    'thermal-stress': ThermalStressFormFields;
  }
}

export const DEFAULT_REFERENCE_TEMPERATURE = 293.15;

export function defaultThermalStressForm(): ThermalStressFormFields {
  return { thermalStressReference: String(DEFAULT_REFERENCE_TEMPERATURE) };
}

/** Per body: the thermal entry's properties, the structural entry's and the library's expansion coefficient. */
function mergedMaterials(
  form: AnalysisForm,
  bodies: readonly BodyRef[],
  parts: Partial<AnalysisConfigInput>[],
): AnalysisConfigInput['bodyMaterials'] {
  const list = bodies.length > 0 ? bodies : [{ region: 0, name: 'Body 1' }];
  const expansion = bodyMaterialEntries(
    list,
    form.bodyMaterials,
    form.bodyOverrides,
    ['thermalExpansion'],
    FAMILY_DEFAULT_MATERIAL,
    assumedIds(inductionMaterialDefaults(form, list)),
  );
  return list.map((_, i) =>
    Object.assign({}, ...parts.map((part) => part.bodyMaterials?.[i] ?? {}), expansion[i]),
  ) as AnalysisConfigInput['bodyMaterials'];
}

/** The thermal keys (Joule heating's conduction keys included), the structural keys, then thermal stress's. */
export function thermalStressToBackend(
  form: AnalysisForm,
  context: ToBackendContext,
): Partial<AnalysisConfigInput> {
  // a steady temperature: the thermal form's transient settings do not apply
  const heat = thermal.toBackend({ ...form, thermalTransient: false }, context);
  // the supports and loads only: the temperature is this run's own (no temperatureLoad, no fieldsFrom)
  const list = context.bodies.length > 0 ? context.bodies : [{ region: 0, name: 'Body 1' }];
  const stress = structuralToBackend(form, context.bodies, assumedIds(inductionMaterialDefaults(form, list)));
  return {
    ...heat,
    ...stress,
    bodyMaterials: mergedMaterials(form, context.bodies, [heat, stress]),
    analysisType: 'thermal-structural',
    transient: false,
    referenceTemperature: parseNumber(form.thermalStressReference) ?? DEFAULT_REFERENCE_TEMPERATURE,
  };
}

export function thermalStressFromBackend(config: Record<string, unknown>): Partial<ThermalStressFormFields> {
  const reference = config.referenceTemperature;
  return typeof reference === 'number' ? { thermalStressReference: String(reference) } : {};
}
