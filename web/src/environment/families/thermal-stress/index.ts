import type { FamilyModule } from '../family-module.ts';
import structural from '../structural/index.ts';
import { Reactions } from '../structural/results/Reactions.tsx';
import { structuralFromBackend } from '../structural/structural-form.ts';
import thermal from '../thermal/index.ts';
import { HeatFlows } from '../thermal/results/HeatFlows.tsx';
import { ThermalStressGroups } from './ThermalStressGroups.tsx';
import {
  defaultThermalStressForm,
  thermalStressFromBackend,
  thermalStressToBackend,
} from './thermal-stress-form.ts';

/** Thermal stress (docs/multiphysics.md §7): one job solves the steady temperature (Joule heating included),
 * then the stresses of the thermal strain with the supports and loads; results hold both families' fields. */
const thermalStress: FamilyModule = {
  id: 'thermal-stress',
  label: 'Thermal stress',
  order: 4,
  blurb:
    'Steady temperature (with Joule heating) and the stresses its expansion causes against the supports, in one run.',
  analysisTypes: ['thermal-structural'],
  minMeshOrder: 2,
  defaults: defaultThermalStressForm,
  modelBound: [],
  Groups: ThermalStressGroups,
  faceLists: (form) => [...thermal.faceLists(form), ...structural.faceLists(form)],
  arrowMarks: (form, mesh) => thermal.arrowMarks?.(form, mesh) ?? [],
  // both steps' estimates drive one mesh (docs/adaptive.md)
  adaptiveQuantities: () => [
    { value: 'max_von_mises_Pa', label: 'Max von Mises stress' },
    { value: 'max_temperature_K', label: 'Max temperature' },
  ],
  analysisType: () => 'thermal-structural',
  mode: (analysisType) => analysisType,
  toBackend: thermalStressToBackend,
  fromBackend: (config, reader) => ({
    ...thermal.fromBackend(config, reader),
    ...structuralFromBackend(config),
    thermalTransient: false,
    ...thermalStressFromBackend(config),
  }),
  analysisLabel: () => 'Thermal stress (thermal-structural)',
  runSettings: (config) => [
    ...thermal.runSettings(config),
    ...structural.runSettings(config),
    ['Stress-free temperature', `${Number(config.referenceTemperature ?? 293.15)} K`],
  ],
  summaryPanels: [HeatFlows, Reactions],
  resultPanels: [],
};

export default thermalStress;
