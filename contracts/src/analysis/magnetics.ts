import { z } from 'zod';
import { faceList, point3, regionRef } from './common.ts';

/**
 * Magnetics keys (docs/magnetics.md): `analysisType: "magnetostatic"` and `"eddy-current"`. Coils are
 * stranded windings filling a body; solid conductors carry a total current with eddy currents inside
 * (eddy-current only). Materials per body through `bodyMaterials` (relativePermeability, bhCurve,
 * remanence, conductivity). Currents in A (DC in magnetostatics, the peak amplitude in eddy currents),
 * phases in degrees, lengths in the model's unit only where a face or point is given.
 */

export const MAGNETIC_BOUNDARY_TYPES = ['flux-tangent', 'flux-normal'] as const;
/** Added air around a bare model: its thickness as a multiple of the model's bounding radius. */
export const AIR_PADDING_DEFAULT = 3;

export const CoilTerminals = z.object({
  /** faces where the current enters the coil body (a cut by a symmetry plane or the model's boundary) */
  in: faceList.min(1),
  out: faceList.min(1),
});

export const Coil = z.object({
  name: z.string().min(1),
  /** the winding's body (index or name, as bodyMaterials takes it) */
  region: regionRef,
  turns: z.number().int().positive(),
  /** A per turn */
  current: z.number().finite(),
  /** degrees (eddy currents) */
  phase: z.number().finite().default(0),
  /** an open winding: the faces it starts and ends on */
  terminals: CoilTerminals.optional(),
  /** a closed winding around a hole: the current circulates right-handed about this direction */
  axis: point3.optional(),
  /** a winding shell around another body (a toroid's core): the current circulates around that body's section */
  wraps: regionRef.optional(),
});
export type Coil = z.infer<typeof Coil>;

/** A massive conductor fed a total current: skin and proximity effect inside in eddy currents, the conduction
 * solution's spread at DC (magnetostatics). Open (terminals, given or found) or a closed ring round a hole. */
export const SolidConductor = z.object({
  name: z.string().optional(),
  region: regionRef,
  /** A: the peak in eddy currents, DC in magnetostatics */
  current: z.number().finite(),
  /** degrees (eddy currents) */
  phase: z.number().finite().default(0),
  /** where the current enters and leaves the conductor (faces on the model's boundary); found by the engine
   * when the conductor meets the boundary in exactly two separate patches; without them (and otherwise) the
   * conductor must be a closed ring round a hole, in which the current circulates */
  terminals: CoilTerminals.optional(),
  /** a closed ring: the current circulates right-handed about this direction (as a closed coil's) */
  axis: point3.optional(),
});

export const MagneticBoundary = z.object({
  faces: faceList,
  /** flux-tangent: n·B = 0 (the default of outer faces); flux-normal: n×H = 0 (a symmetry plane B crosses) */
  type: z.enum(MAGNETIC_BOUNDARY_TYPES),
});

/** An axis for torques: a point on it (model units) and its direction. */
export const TorqueAxis = z.object({ origin: point3.default([0, 0, 0]), direction: point3 });

export const magneticsKeys = {
  coils: z.array(Coil).default([]),
  solidConductors: z.array(SolidConductor).default([]),
  magneticBoundaries: z.array(MagneticBoundary).default([]),
  /** 0: no air is added (the model holds its own air) */
  airPadding: z.number().min(0).max(20).optional(),
  /** bodies whose force (N) and torque (N·m) are reported */
  forceBodies: z.array(regionRef).default([]),
  torqueAxis: TorqueAxis.optional(),
};

/** The named result fields of the magnetic analyses (docs/multiphysics.md §1). */
export const MAGNETICS_FIELDS = {
  magnetic_flux_density: { label: 'Magnetic flux density', unit: 'T', kind: 'vector' },
  magnetic_field: { label: 'Magnetic field', unit: 'A/m', kind: 'vector' },
  current_density: { label: 'Current density', unit: 'A/m^2', kind: 'vector' },
  coil_direction: { label: 'Coil current direction', unit: '', kind: 'vector' },
} as const;

const MAGNETIC_TYPES = new Set(['magnetostatic', 'eddy-current']);

/** Checks across magnetics keys before a run: unique coil names, one way of routing each coil's current. */
export function magneticsConfigIssues(config: {
  analysisType?: string;
  coils?: Coil[];
}): { path: (string | number)[]; message: string }[] {
  if (!MAGNETIC_TYPES.has(String(config.analysisType))) return [];
  const issues: { path: (string | number)[]; message: string }[] = [];
  const seen = new Set<string>();
  (config.coils ?? []).forEach((coil, k) => {
    if (seen.has(coil.name))
      issues.push({ path: ['coils', k, 'name'], message: `coil name '${coil.name}' is used twice` });
    seen.add(coil.name);
    if (coil.terminals && coil.wraps !== undefined)
      issues.push({
        path: ['coils', k],
        message: `coil '${coil.name}': give terminals (an open winding) or wraps (a winding around a body), not both`,
      });
  });
  return issues;
}
