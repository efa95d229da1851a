import type { AnalysisForm } from '../../config/analysis-form.ts';
import { FAMILY_DEFAULT_MATERIAL } from '../../config/common/body-materials.ts';
import { materialsLibrary } from '../../config/materials-library.ts';
import { parseInteger } from '../../config/numbers.ts';
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
