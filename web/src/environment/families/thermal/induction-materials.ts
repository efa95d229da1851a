import type { AnalysisForm } from '../../config/analysis-form.ts';
import type { MaterialProperty } from '../../config/common/body-materials.ts';
import { FAMILY_DEFAULT_MATERIAL } from '../../config/common/body-materials.ts';
import { materialsLibrary } from '../../config/materials-library.ts';
import { parseInteger, parseNumber } from '../../config/numbers.ts';
import type { BodyRef } from '../../config/to-backend-config.ts';

/** What an induction-heated run takes for a body the user chose no material for, and why. */
export interface AssumedMaterial {
  id: string;
  reason: string;
}

const AIR = /\b(air|vacuum)\b/i;

/**
 * The material an induction-heated run (docs/magnetics.md §8) assumes for each body without a choice in
 * Materials. Every body on the thermal family's default steel would make the modelled air and the winding
 * conduct and be magnetic (eddy currents in the air, a steel coil): instead a coil's or a solid conductor's
 * body is copper, a body named air (or vacuum) is air, a body named after a library material is that
 * material (`copper`, `aluminium`, …), and the rest — the workpiece — steel, as the thermal form's default.
 * An explicit choice always wins; the form lists what it assumed.
 */
export function inductionMaterialDefaults(
  form: Pick<AnalysisForm, 'inductionHeating' | 'bodyMaterials' | 'coils' | 'solidConductors'>,
  bodies: readonly BodyRef[],
): Record<number, AssumedMaterial> {
  if (!form.inductionHeating) return {};
  const windings = new Set(form.coils.map((c) => parseInteger(c.body)));
  const conductors = new Set(form.solidConductors.map((s) => parseInteger(s.body)));
  const out: Record<number, AssumedMaterial> = {};
  for (const body of bodies) {
    if (form.bodyMaterials[body.region] !== undefined) continue;
    out[body.region] = assumedFor(body, windings.has(body.region), conductors.has(body.region));
  }
  return out;
}

function assumedFor(body: BodyRef, winding: boolean, conductor: boolean): AssumedMaterial {
  if (winding) return { id: 'copper', reason: "a coil's winding" };
  if (conductor) return { id: 'copper', reason: 'a solid conductor' };
  if (AIR.test(body.name)) return { id: 'vacuum', reason: 'named air' };
  const named = materialsLibrary().find(
    (m) => m.id !== FAMILY_DEFAULT_MATERIAL && new RegExp(`\\b${escapeRegExp(m.id)}\\b`, 'i').test(body.name),
  );
  if (named) return { id: named.id, reason: `named ${named.id}` };
  return { id: FAMILY_DEFAULT_MATERIAL, reason: 'the workpiece: no material chosen' };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The ids alone, as the material tables take them. */
export function assumedIds(assumed: Record<number, AssumedMaterial>): Record<number, string> {
  return Object.fromEntries(Object.entries(assumed).map(([region, a]) => [region, a.id]));
}

type EddyProperty = 'conductivity' | 'relativePermeability';
type Overrides = Record<number, Partial<Record<MaterialProperty, string>>>;

/**
 * The conductivity and permeability the user set for the eddy-current part in the Electromagnetic form's
 * Magnetic materials (a body given a kind there), as the induction-heated run's overrides: the same numbers an
 * eddy-current run would solve with. A soft-iron body gives only its conductivity (an eddy-current solve needs
 * a μr, not a B–H curve: its thermal material's μr stays); a body left 'air' there gives nothing.
 */
export function inductionMagneticOverrides(
  form: Pick<AnalysisForm, 'inductionHeating' | 'magneticBodies'>,
): Record<number, Partial<Record<EddyProperty, string>>> {
  if (!form.inductionHeating) return {};
  const out: Record<number, Partial<Record<EddyProperty, string>>> = {};
  for (const [region, body] of Object.entries(form.magneticBodies)) {
    const entry: Partial<Record<EddyProperty, string>> = {};
    const sigma = parseNumber(body.conductivity);
    if (sigma !== undefined && sigma >= 0) entry.conductivity = String(sigma);
    const mu = parseNumber(body.relativePermeability);
    if (body.kind !== 'iron' && mu !== undefined && mu > 0) entry.relativePermeability = String(mu);
    if (Object.keys(entry).length > 0) out[Number(region)] = entry;
  }
  return out;
}

/** The thermal table's typed overrides over the Electromagnetic form's eddy-current properties: a value typed in
 * Materials wins, then the magnetic material, then the body's (chosen or assumed) library material. */
export function inductionOverrides(
  form: Pick<AnalysisForm, 'inductionHeating' | 'magneticBodies' | 'bodyOverrides'>,
): Overrides {
  const fromEm = inductionMagneticOverrides(form);
  const out: Overrides = { ...form.bodyOverrides };
  for (const [region, entry] of Object.entries(fromEm)) {
    out[Number(region)] = { ...entry, ...form.bodyOverrides[Number(region)] };
  }
  return out;
}
