import type { AnalysisConfigInput } from '@fieldline/contracts';
import { type AnalysisForm, rowKey, type Triple } from '../../config/analysis-form.ts';
import {
  bodyMaterialEntries,
  FAMILY_DEFAULT_MATERIAL,
  restoreBodyMaterials,
} from '../../config/common/body-materials.ts';
import { parseFaceList } from '../../config/face-list.ts';
import { parseNumber } from '../../config/numbers.ts';
import type { BodyRef } from '../../config/to-backend-config.ts';
import type { StructuralThermalLoadFields } from './thermal-load.ts';

/** A support on picked faces: fixed (every component 0) or prescribed components (blank = free). */
export interface SupportRow {
  key: string;
  name: string;
  kind: 'fixed' | 'displacement';
  faces: string;
  /** metres; blank leaves the component free (a symmetry plane holds its normal component only) */
  displacement: Triple;
}

/** A load on picked faces: a total force (N, spread by area) or a pressure (Pa, positive into the body). */
export interface LoadRow {
  key: string;
  name: string;
  kind: 'force' | 'pressure';
  faces: string;
  force: Triple;
  pressure: string;
}

export interface StructuralFormFields {
  structuralSupports: SupportRow[];
  structuralLoads: LoadRow[];
  gravityOn: boolean;
  /** m/s² */
  gravity: Triple;
}

declare module '../../config/analysis-form.ts' {
  interface FamilyForms {
    structural: StructuralFormFields & StructuralThermalLoadFields;
  }
}

export function defaultStructuralForm(): StructuralFormFields {
  return { structuralSupports: [], structuralLoads: [], gravityOn: false, gravity: ['0', '0', '-9.81'] };
}

export const newStructuralRows = {
  support: (index: number): SupportRow => ({
    key: rowKey(),
    name: `Support ${index + 1}`,
    kind: 'fixed',
    faces: '',
    displacement: ['0', '', ''],
  }),
  load: (index: number): LoadRow => ({
    key: rowKey(),
    name: `Load ${index + 1}`,
    kind: 'force',
    faces: '',
    force: ['0', '0', '-500'],
    pressure: '1e5',
  }),
};

const component = (text: string): number | null => (text.trim() === '' ? null : (parseNumber(text) ?? null));
const vector = (t: Triple): [number, number, number] => [
  parseNumber(t[0]) ?? 0,
  parseNumber(t[1]) ?? 0,
  parseNumber(t[2]) ?? 0,
];

export const STRUCTURAL_PROPERTIES = ['youngsModulus', 'poissonRatio', 'density', 'yieldStrength'] as const;

/** The structural keys of the backend config (docs/structural.md); rows without faces are left out. */
export function structuralToBackend(
  form: StructuralFormFields & Pick<AnalysisForm, 'bodyMaterials' | 'bodyOverrides'>,
  bodies: readonly BodyRef[],
  /** per body, the material a coupled run assumes where none was chosen (thermal stress with induction) */
  assumed: Record<number, string> = {},
): Partial<AnalysisConfigInput> {
  const fixedSupports: NonNullable<AnalysisConfigInput['fixedSupports']> = [];
  const displacementConditions: NonNullable<AnalysisConfigInput['displacementConditions']> = [];
  for (const row of form.structuralSupports) {
    const faces = parseFaceList(row.faces);
    if (faces.length === 0) continue;
    if (row.kind === 'fixed') fixedSupports.push({ faces, name: row.name });
    else {
      const displacement = row.displacement.map(component) as [number | null, number | null, number | null];
      if (displacement.every((c) => c === null)) continue;
      displacementConditions.push({ faces, displacement, name: row.name });
    }
  }
  const forceLoads: NonNullable<AnalysisConfigInput['forceLoads']> = [];
  const pressureLoads: NonNullable<AnalysisConfigInput['pressureLoads']> = [];
  for (const row of form.structuralLoads) {
    const faces = parseFaceList(row.faces);
    if (faces.length === 0) continue;
    if (row.kind === 'force') forceLoads.push({ faces, force: vector(row.force), name: row.name });
    else pressureLoads.push({ faces, pressure: parseNumber(row.pressure) ?? 0, name: row.name });
  }
  return {
    bodyMaterials: bodyMaterialEntries(
      bodies.length > 0 ? bodies : [{ region: 0, name: 'Body 1' }],
      form.bodyMaterials,
      form.bodyOverrides,
      STRUCTURAL_PROPERTIES,
      FAMILY_DEFAULT_MATERIAL,
      assumed,
    ) as AnalysisConfigInput['bodyMaterials'],
    fixedSupports,
    displacementConditions,
    forceLoads,
    pressureLoads,
    gravity: form.gravityOn ? vector(form.gravity) : [0, 0, 0],
  };
}

/** The form rows of a saved structural config (the results' analysis_config), with each body's library
 * material and the properties that differ from it (the expansion coefficient too when the run was thermally
 * loaded). */
export function structuralFromBackend(
  config: Record<string, unknown>,
  withExpansion = false,
): StructuralFormFields & Pick<AnalysisForm, 'bodyMaterials' | 'bodyOverrides'> {
  const out = {
    ...defaultStructuralForm(),
    ...restoreBodyMaterials(
      config.bodyMaterials,
      withExpansion ? [...STRUCTURAL_PROPERTIES, 'thermalExpansion'] : STRUCTURAL_PROPERTIES,
    ),
  };
  const list = (v: unknown) => (Array.isArray(v) ? (v as Record<string, unknown>[]) : []);
  const text = (v: unknown) => (typeof v === 'number' ? String(v) : '');
  const faces = (v: unknown) => (Array.isArray(v) ? v.join(', ') : '');
  for (const s of list(config.fixedSupports)) {
    out.structuralSupports.push({
      ...newStructuralRows.support(out.structuralSupports.length),
      name: String(s.name ?? `Support ${out.structuralSupports.length + 1}`),
      faces: faces(s.faces),
    });
  }
  for (const s of list(config.displacementConditions)) {
    const d = Array.isArray(s.displacement) ? s.displacement : [];
    out.structuralSupports.push({
      ...newStructuralRows.support(out.structuralSupports.length),
      name: String(s.name ?? `Support ${out.structuralSupports.length + 1}`),
      kind: 'displacement',
      faces: faces(s.faces),
      displacement: [text(d[0]), text(d[1]), text(d[2])],
    });
  }
  for (const l of list(config.forceLoads)) {
    const f = Array.isArray(l.force) ? l.force : [];
    out.structuralLoads.push({
      ...newStructuralRows.load(out.structuralLoads.length),
      name: String(l.name ?? `Load ${out.structuralLoads.length + 1}`),
      faces: faces(l.faces),
      force: [text(f[0]) || '0', text(f[1]) || '0', text(f[2]) || '0'],
    });
  }
  for (const l of list(config.pressureLoads)) {
    out.structuralLoads.push({
      ...newStructuralRows.load(out.structuralLoads.length),
      name: String(l.name ?? `Load ${out.structuralLoads.length + 1}`),
      kind: 'pressure',
      faces: faces(l.faces),
      pressure: text(l.pressure) || '0',
    });
  }
  const g = Array.isArray(config.gravity) ? (config.gravity as unknown[]) : [];
  if (g.some((x) => typeof x === 'number' && x !== 0)) {
    out.gravityOn = true;
    out.gravity = [text(g[0]) || '0', text(g[1]) || '0', text(g[2]) || '0'];
  }
  return out;
}
