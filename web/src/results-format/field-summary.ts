import { type FieldKind, metresPerUnit, SPEC_FIELD_MODES } from '@fieldline/contracts';
import { peakPhaseVectors } from './peak-phase.ts';
import type { ViewerPayload } from './viewer-payload.ts';

/** What the field controls need to know of a result's catalogue (docs/multiphysics.md §1), without data. */
export interface FieldSummary {
  name: string;
  label: string;
  unit: string;
  kind: FieldKind;
  role?: string;
}

export interface CatalogueSummary {
  fields: FieldSummary[];
  /** a vector field with role `deformation`, with the exaggeration that shows its largest value as
   * AUTO_DEFORMATION_SHARE of the model's largest dimension */
  deformation: DeformationSummary | null;
}

export interface DeformationSummary {
  field: string;
  /** metres drawn per unit of the field (its values are SI metres, or a shape normalised to 1) */
  autoScale: number;
  /** the field's largest |u| (at the phase of largest deflection), in the field's unit */
  largest: number;
  /** the field's unit: "m", or "" for a mode shape (normalised: its amplitude is arbitrary) */
  unit: string;
  /** the model's length unit (vertices are in it): what the drawn amplitude is said in */
  modelUnit: string;
}

/**
 * Share of the model's largest dimension the largest displacement is drawn at by default: visible, yet the
 * deformed shape stays close to the part (post-processors draw it at about 5–10 %; 10 % of the diagonal
 * drew a slender bar past the viewer's frame, qa29).
 */
export const AUTO_DEFORMATION_SHARE = 0.05;

export function summarizeCatalogue(payload: ViewerPayload): CatalogueSummary {
  const entries = Object.entries(payload.fields ?? {});
  const fields = entries.map(([name, f]) => ({
    name,
    label: f.label,
    unit: f.unit,
    kind: f.kind,
    ...(f.role ? { role: f.role } : {}),
  }));
  const found = entries.find(
    ([, f]) => f.role === 'deformation' && f.kind === 'vector' && f.location === 'vertex',
  );
  const largest = found ? largestMagnitude(peakPhaseVectors(found[1].values, found[1].imag)) : 0;
  const deformation = found
    ? {
        field: found[0],
        autoScale: autoDeformationScale(payload.mesh.positions, largest, metresPerUnit(payload.mesh.units)),
        largest,
        unit: found[1].unit,
        modelUnit: payload.mesh.units ?? 'm',
      }
    : null;
  return { fields, deformation };
}

/** |v| of the largest of xyz vectors. */
export function largestMagnitude(vectors: Float32Array): number {
  let max = 0;
  for (let i = 0; i + 2 < vectors.length; i += 3) {
    const m = Math.hypot(vectors[i]!, vectors[i + 1]!, vectors[i + 2]!);
    if (m > max) max = m;
  }
  return max;
}

/**
 * The exaggeration that draws a displacement of `maxDisplacement` (in metres — fields are SI) as
 * AUTO_DEFORMATION_SHARE of the model's largest bounding-box edge (`positions` in model units;
 * `metresPerUnit` converts). 0 when nothing moves.
 */
export function autoDeformationScale(
  positions: Float32Array,
  maxDisplacement: number,
  metresPerUnit = 1,
): number {
  if (!(maxDisplacement > 0) || positions.length < 3) return 0;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const v = positions[i + k]!;
      if (v < lo[k]!) lo[k] = v;
      if (v > hi[k]!) hi[k] = v;
    }
  }
  const largest = Math.max(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!) * metresPerUnit;
  return (AUTO_DEFORMATION_SHARE * largest) / maxDisplacement;
}

/** The spec's four surface field modes lead the selector when the result leads with a field they name
 * (an EM result); a thermal result that carries the conduction fields too leads with its temperature. */
export function hasSpecFieldModes(fields: FieldSummary[]): boolean {
  return SPEC_FIELD_MODES.some((m) => m.name === fields[0]?.name);
}

/** Units as people write them: A/m^2 → A/m², W/m^2 → W/m². */
export function prettyUnit(unit: string): string {
  return unit.replace(/\^2/g, '²').replace(/\^3/g, '³').replace(/\^-1/g, '⁻¹');
}
