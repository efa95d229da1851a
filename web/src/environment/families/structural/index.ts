import type { FaceListRole, FaceRow, FamilyModule } from '../family-module.ts';
import { Reactions } from './results/Reactions.tsx';
import { StructuralGroups } from './StructuralGroups.tsx';
import { defaultStructuralForm, structuralFromBackend, structuralToBackend } from './structural-form.ts';
import { structuralRunSettings } from './structural-run-settings.ts';
import {
  defaultStructuralThermalLoad,
  thermalLoadFromBackend,
  thermalLoadToBackend,
} from './thermal-load.ts';

const named = (fallback: string) => (row: FaceRow, i: number) => row.name?.trim() || `${fallback} ${i + 1}`;
/** Supports and loads as the face marks show them (vibration shows the same rows). */
export const SUPPORT_FACES: FaceListRole = {
  list: 'structuralSupports',
  toneOf: () => 'constraint',
  nameOf: named('Support'),
};
export const LOAD_FACES: FaceListRole = {
  list: 'structuralLoads',
  toneOf: () => 'load',
  nameOf: named('Load'),
};

/** Linear static stress (docs/structural.md). */
const structural: FamilyModule = {
  id: 'structural',
  label: 'Structural',
  order: 3,
  blurb:
    'Linear static stress: supports and loads on picked faces, deformed shape, von Mises stress, reactions.',
  analysisTypes: ['structural'],
  minMeshOrder: 2,
  defaults: () => ({ ...defaultStructuralForm(), ...defaultStructuralThermalLoad() }),
  // a chosen thermal job ran on the old model's mesh
  modelBound: ['structuralSupports', 'structuralLoads', 'structuralTemperatureJob'],
  Groups: StructuralGroups,
  faceLists: () => [SUPPORT_FACES, LOAD_FACES],
  adaptiveQuantities: () => [
    { value: 'max_von_mises_Pa', label: 'Max von Mises stress' },
    { value: 'max_displacement_m', label: 'Max displacement' },
  ],
  analysisType: () => 'structural',
  mode: (analysisType) => analysisType,
  // the supports and loads, then the thermal load (a uniform temperature or a thermal job's) when there is one
  toBackend: (form, { bodies }) => ({
    ...structuralToBackend(form, bodies),
    ...thermalLoadToBackend(form, bodies),
  }),
  fromBackend: (config) => {
    const thermalLoad = thermalLoadFromBackend(config);
    const rows = structuralFromBackend(config, thermalLoad.structuralTemperatureFrom !== 'none');
    return { ...rows, ...thermalLoad };
  },
  analysisLabel: () => 'Linear static (structural)',
  runSettings: structuralRunSettings,
  summaryPanels: [Reactions],
  resultPanels: [],
};

export default structural;
