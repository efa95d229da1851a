import type { Material } from '@fieldline/contracts';
import type { MaterialProperty } from '../analysis-form.ts';
import { materialById } from '../materials-library.ts';
import { parseNumber } from '../numbers.ts';
import type { BodyRef } from '../to-backend-config.ts';

export type { MaterialProperty };

export const PROPERTY_LABELS: Record<MaterialProperty, { label: string; unit: string }> = {
  conductivity: { label: 'Electrical conductivity', unit: 'S/m' },
  relativePermeability: { label: 'Relative permeability μr', unit: '' },
  density: { label: 'Density', unit: 'kg/m³' },
  youngsModulus: { label: "Young's modulus", unit: 'Pa' },
  poissonRatio: { label: "Poisson's ratio", unit: '' },
  yieldStrength: { label: 'Yield strength', unit: 'Pa' },
  thermalConductivity: { label: 'Thermal conductivity', unit: 'W/(m·K)' },
  heatCapacity: { label: 'Heat capacity', unit: 'J/(kg·K)' },
  thermalExpansion: { label: 'Thermal expansion', unit: '1/K' },
  emissivity: { label: 'Emissivity', unit: '' },
};

/** Structural and thermal bodies without a choice are steel, the usual first guess for a metal part. */
export const FAMILY_DEFAULT_MATERIAL = 'steel';

/** A body's library material: its form choice, else what the run assumes for that body (`assumed`, e.g.
 * induction heating's copper winding), else the family's default. */
export function bodyMaterial(
  bodyMaterials: Record<number, string>,
  fallbackId: string,
  region: number,
  assumed: Record<number, string> = {},
): Material {
  return materialById(bodyMaterials[region] ?? assumed[region] ?? fallbackId);
}

/**
 * `bodyMaterials` entries for a family: each body's library material by name and the listed properties —
 * the library's values, replaced by what the user typed over them.
 */
export function bodyMaterialEntries(
  bodies: readonly BodyRef[],
  bodyMaterials: Record<number, string>,
  overrides: Record<number, Partial<Record<MaterialProperty, string>>>,
  properties: readonly MaterialProperty[],
  fallbackId: string,
  assumed: Record<number, string> = {},
): Record<string, unknown>[] {
  return bodies.map((body) => {
    const m = bodyMaterial(bodyMaterials, fallbackId, body.region, assumed);
    const entry: Record<string, unknown> = { region: body.region, name: body.name, material: m.id };
    for (const p of properties) {
      const typed = parseNumber(overrides[body.region]?.[p] ?? '');
      const value = typed ?? m[p];
      if (value !== undefined) entry[p] = value;
    }
    return entry;
  });
}

/** The form's per-body library choices and overrides back from saved `bodyMaterials` entries. */
export function restoreBodyMaterials(
  entries: unknown,
  properties: readonly MaterialProperty[],
): {
  bodyMaterials: Record<number, string>;
  bodyOverrides: Record<number, Partial<Record<MaterialProperty, string>>>;
} {
  const bodyMaterials: Record<number, string> = {};
  const bodyOverrides: Record<number, Partial<Record<MaterialProperty, string>>> = {};
  for (const entry of Array.isArray(entries) ? entries : []) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    const region = typeof e.region === 'number' ? e.region : undefined;
    if (region === undefined) continue;
    const m = typeof e.material === 'string' ? materialById(e.material) : undefined;
    if (m && m.id === e.material) bodyMaterials[region] = m.id;
    const typed: Partial<Record<MaterialProperty, string>> = {};
    for (const p of properties) {
      if (typeof e[p] === 'number' && e[p] !== m?.[p]) typed[p] = String(e[p]);
    }
    if (Object.keys(typed).length > 0) bodyOverrides[region] = typed;
  }
  return { bodyMaterials, bodyOverrides };
}
