import { z } from 'zod';
import { faceList } from './common.ts';

/**
 * Structural keys (docs/structural.md): linear static elasticity. Forces in N, pressures in Pa (positive
 * pushes into the body), displacements in m, gravity in m/s². Per-body E, ν, ρ and yield strength come from
 * `bodyMaterials` (library material and overrides); these are the defaults for bodies without them.
 */
export const STRUCTURAL_DEFAULTS = {
  youngsModulus: 200e9,
  poissonRatio: 0.3,
  /** 1/K, structural steel (as the default Young's modulus) */
  thermalExpansion: 12e-6,
  /** K, the stress-free temperature (20 °C) */
  referenceTemperature: 293.15,
  /** linear tetrahedra lock in bending: the structural form starts at order 2 */
  meshOrder: 2,
} as const;

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const vector = z.tuple([finite, finite, finite]);
const optionalComponent = finite.nullable();

const vertexIndex = z.number().int().nonnegative();
/**
 * Where a support acts: `faces` (1-based surface-triangle ids), or `edges` — mesh edges as pairs of vertex
 * indices (0-based, as `faces` triangles and `tetrahedra` hold them), a line such as a plate's mid-line —
 * or `points` (vertex indices). Exactly one of the three.
 */
const supportTargets = {
  faces: faceList.default([]),
  edges: z.array(z.tuple([vertexIndex, vertexIndex])).optional(),
  points: z.array(vertexIndex).optional(),
};
const oneTarget = (
  value: { faces: number[]; edges?: unknown[]; points?: unknown[] },
  ctx: z.RefinementCtx,
) => {
  const given = (['faces', 'edges', 'points'] as const).filter((key) => (value[key]?.length ?? 0) > 0);
  if (given.length !== 1) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: [given[1] ?? 'faces'],
      message:
        given.length === 0
          ? 'a support needs faces, edges or points'
          : `give one of faces, edges or points, not ${given.join(' and ')}`,
    });
  }
};

export const FixedSupport = z
  .object({ ...supportTargets, name: z.string().optional() })
  .superRefine(oneTarget);
/** null components are free: a symmetry plane is 0 on its normal component only. */
export const DisplacementCondition = z
  .object({
    ...supportTargets,
    displacement: z.tuple([optionalComponent, optionalComponent, optionalComponent]),
    name: z.string().optional(),
  })
  .superRefine(oneTarget);
/** A total force (N) spread over the faces by area. */
export const ForceLoad = z.object({ faces: faceList, force: vector, name: z.string().optional() });
export const PressureLoad = z.object({ faces: faceList, pressure: finite, name: z.string().optional() });
/** A thermal load without a thermal solve: the whole model at one temperature (K). */
export const TemperatureLoad = z.object({
  uniform: z.number().gt(0, 'temperatures are absolute (kelvin) and must be above 0 K'),
});

export const structuralKeys = {
  youngsModulus: z.number().positive().default(STRUCTURAL_DEFAULTS.youngsModulus),
  poissonRatio: z.number().gt(-1).lt(0.5).default(STRUCTURAL_DEFAULTS.poissonRatio),
  yieldStrength: z.number().positive().optional(),
  fixedSupports: z.array(FixedSupport).default([]),
  displacementConditions: z.array(DisplacementCondition).default([]),
  forceLoads: z.array(ForceLoad).default([]),
  pressureLoads: z.array(PressureLoad).default([]),
  gravity: vector.default([0, 0, 0]),
  /** 1/K, the linear expansion coefficient of bodies without their own (bodyMaterials) */
  thermalExpansion: z.number().min(0).default(STRUCTURAL_DEFAULTS.thermalExpansion),
  /** K: the temperature at which the part is free of thermal stress */
  referenceTemperature: z
    .number()
    .gt(0, 'temperatures are absolute (kelvin) and must be above 0 K')
    .default(STRUCTURAL_DEFAULTS.referenceTemperature),
  /** strains every body by α (T − referenceTemperature) */
  temperatureLoad: TemperatureLoad.optional(),
};

/** The engine's sentences for a static model it cannot solve (engine core/elasticity/setup.py). */
export const STRUCTURAL_NO_SUPPORTS =
  'The model has no supports: add a fixed support or a displacement condition on some faces, edges ' +
  'or points, or it can move freely as a rigid body.';
export const STRUCTURAL_NO_LOADS =
  'The model has no loads: add a force, a pressure, gravity, a thermal load or a non-zero ' +
  'displacement condition.';

interface StructuralChecked {
  analysisType?: string;
  fixedSupports?: unknown[];
  displacementConditions?: { displacement: (number | null)[] }[];
  forceLoads?: unknown[];
  pressureLoads?: unknown[];
  gravity?: number[];
  temperatureLoad?: unknown;
  fieldsFrom?: { fields?: string[] };
}

/**
 * A static run the engine would refuse (no supports: a rigid-body motion; nothing loads it) is a 400 at
 * submit rather than a queued job that fails. Modal runs may be free–free; other families: nothing.
 */
export function structuralConfigIssues(config: StructuralChecked): { path: string[]; message: string }[] {
  const coupled = config.analysisType === 'thermal-structural';
  if (config.analysisType !== 'structural' && !coupled) return [];
  const displacements = config.displacementConditions ?? [];
  const issues: { path: string[]; message: string }[] = [];
  if ((config.fixedSupports?.length ?? 0) + displacements.length === 0)
    issues.push({ path: ['fixedSupports'], message: STRUCTURAL_NO_SUPPORTS });
  const moves = displacements.some((d) => d.displacement.some((v) => v !== null && v !== 0));
  // A thermal load counts: uniform, the coupled job's own temperature, or a chained thermal job's.
  const thermal =
    coupled ||
    config.temperatureLoad !== undefined ||
    (config.fieldsFrom?.fields ?? []).includes('temperature');
  const loaded =
    thermal ||
    (config.forceLoads?.length ?? 0) + (config.pressureLoads?.length ?? 0) > 0 ||
    (config.gravity ?? []).some((g) => g !== 0) ||
    moves;
  if (!loaded) issues.push({ path: ['forceLoads'], message: STRUCTURAL_NO_LOADS });
  return issues;
}

/** Design-study outputs of the static analysis (docs/structural.md; see StudyOutputCatalogue). */
export const STRUCTURAL_STUDY_OUTPUTS = {
  structural: {
    quantities: ['max_displacement_m', 'max_von_mises_Pa', 'strain_energy_J', 'safety_factor'],
  },
  // engine structural/thermal_stress.py: the steady thermal solve's quantities and the static ones
  'thermal-structural': {
    quantities: [
      'max_displacement_m',
      'max_von_mises_Pa',
      'strain_energy_J',
      'safety_factor',
      'max_temperature_K',
      'min_temperature_K',
      'source_power_W',
    ],
  },
} as const;
