import { z } from 'zod';
import { BhCurve } from '../materials/magnetic.ts';

/**
 * Keys every analysis family shares (docs/multiphysics.md §5): the analysis type, solver, element order,
 * per-body materials, time stepping, outputs and meshing controls. Spec 001 §3/§5/§9 names most of them.
 */

/** Every analysis type the API knows; `AVAILABLE_ANALYSIS_TYPES` says which ones a solver runs today. */
export const ANALYSIS_TYPES = [
  'em',
  'em-time',
  'em-eigen',
  'thermal',
  'thermal-time',
  'structural',
  'modal',
  'harmonic',
  'thermal-structural',
  'magnetostatic',
  'eddy-current',
  'tetra-only',
] as const;
export type AnalysisType = (typeof ANALYSIS_TYPES)[number];
/** The types whose engine family has landed; the others are refused with a 400 naming these. */
export const AVAILABLE_ANALYSIS_TYPES: readonly AnalysisType[] = [
  'em',
  'em-time',
  'em-eigen',
  'thermal',
  'thermal-time',
  'structural',
  'modal',
  'harmonic',
  'thermal-structural',
  'magnetostatic',
  'eddy-current',
  'tetra-only',
];
/** The form's Transient switch on a steady family selects its time-domain twin (spec 001 §3: em → em-time). */
export const TRANSIENT_TWINS: Partial<Record<AnalysisType, AnalysisType>> = {
  em: 'em-time',
  thermal: 'thermal-time',
};

export const TIME_SCHEMES = ['newmark', 'explicit', 'implicit'] as const;
/** gmres-bddc: the full-wave solver's iterative choice (GMRES + BDDC); for symmetric systems it means CG + BDDC. */
export const LINEAR_SOLVERS = ['auto', 'direct', 'cg-bddc', 'cg-amg', 'gmres-bddc'] as const;
export const MESH_ALGORITHMS = ['auto', 'hxt', 'delaunay', 'netgen'] as const;
export const MESH_REPAIR_MODES = ['safe', 'none'] as const;

/** Spec 001 §9 defaults, in SI units. */
export const ANALYSIS_DEFAULTS = {
  frequency: 0,
  tolerance: 1e-6,
  maxIterations: 1000,
  defaultPermittivity: 8.854e-12,
  defaultPermeability: 4 * Math.PI * 1e-7,
  defaultConductivity: 0,
  density: 1000,
  heatCapacity: 4186,
  timeStep: 1e-10,
  endTime: 1e-9,
  timeScheme: 'newmark',
  pmlThickness: 0.1,
  pmlSigmaMax: 1e6,
  gridPaddingFactor: 0.1,
  gridResolution: [10, 10, 10] as [number, number, number],
  animationFrames: 50,
  portImpedance: 50,
  sParamFreqMin: 1e9,
  sParamFreqMax: 1e10,
  sParamNumPoints: 101,
  sParamSweepType: 'uniform',
  sParamAdaptiveTolerance: 1e-3,
  impedance: { real: 50, imag: 0 },
  meshOrder: 1,
  pulseShape: 'gaussian',
} as const;

/** Spec 001 §5 form bounds. */
export const ANALYSIS_BOUNDS = {
  frequencyHz: { min: 0, max: 20e9, step: 0.1e9 },
  pmlThickness: { min: 0.01, max: 0.5, step: 0.01 },
  gridResolution: { min: 1, max: 256 },
  gridPaddingFactor: { min: 0, max: 1, step: 0.05 },
  animationFrames: { min: 10, max: 200, step: 10 },
  meshOrder: [1, 2, 3] as const,
  vectorScale: { min: 0.1, max: 5.0 },
  animationSpeedFps: { min: 0.5, max: 10, default: 3 },
  /** relative residual of the adaptive sweep's reduced model */
  sParamAdaptiveTolerance: { min: 1e-8, max: 0.1 },
} as const;

/** 1-based surface-triangle ids (spec: zero and invalid entries are dropped by the form). */
export const faceList = z.array(z.number().int().nonnegative());
export const point3 = z.tuple([z.number(), z.number(), z.number()]);
/** A body by 0-based index or by name. */
export const regionRef = z.union([z.number().int().nonnegative(), z.string()]);

/**
 * The spec's generic Neumann condition: a normal flux on faces (EM: charge/current density; thermal: W/m²).
 * `name` labels it in the results (thermal heat flows), as the other conditions' names do.
 */
export const NeumannCondition = z.object({ faces: faceList, flux: z.number(), name: z.string().optional() });

/** A probe: [x, y, z] in model units, or a named point (time-domain series, harmonic response). */
export const ProbePoint = z.union([point3, z.object({ name: z.string().optional(), point: point3 })]);

/**
 * Per-body material (multi-body models): a library material (`material`, contracts/src/materials) and/or
 * properties that override it. EM properties are relative (permittivity, permeability), everything else SI.
 * Unset properties come from the library entry, else from the family's defaults.
 */
export const BodyMaterial = z.object({
  region: regionRef,
  name: z.string().optional(),
  /** a material library name (`GET /api/materials`), e.g. "copper" */
  material: z.string().optional(),
  relativePermittivity: z.number().positive().optional(),
  relativePermeability: z.number().positive().optional(),
  conductivity: z.number().nonnegative().optional(),
  lossTangent: z.number().nonnegative().optional(),
  density: z.number().positive().optional(),
  youngsModulus: z.number().positive().optional(),
  poissonRatio: z.number().gt(-1).lt(0.5).optional(),
  yieldStrength: z.number().positive().optional(),
  thermalConductivity: z.number().positive().optional(),
  heatCapacity: z.number().positive().optional(),
  thermalExpansion: z.number().optional(),
  emissivity: z.number().gt(0).max(1).optional(),
  /** Soft iron (docs/magnetics.md): a library curve name or [[H (A/m), B (T)], …]; overrides μr. */
  bhCurve: BhCurve.optional(),
  /** A permanent magnet's remanent flux density Br (T) as a vector; `relativePermeability` is its recoil μr. */
  remanence: z.tuple([z.number(), z.number(), z.number()]).optional(),
  /** Br (T) as a magnitude (a library magnet), pointed along `magnetDirection`. */
  remanentFluxDensity: z.number().nonnegative().optional(),
  magnetDirection: z.tuple([z.number(), z.number(), z.number()]).optional(),
});
export type BodyMaterial = z.infer<typeof BodyMaterial>;

/** Per-body maximum element size for multi-body models (body index or name; model units). */
export const MeshBodySize = z.object({ region: regionRef, maxSize: z.number().positive() });

const d = ANALYSIS_DEFAULTS;

/** Adaptive refinement defaults and bounds (docs/adaptive.md); the engine applies the same. */
export const ADAPTIVE_DEFAULTS = {
  maxPasses: 8,
  maxUnknowns: 200_000,
  fraction: 0.3,
  /** estimated relative error (static, thermal, structural) or relative change of the chosen quantity */
  tolerance: 0.01,
  /** full-wave: HFSS's max |ΔS| between passes */
  fullwaveTolerance: 0.02,
} as const;
export const ADAPTIVE_BOUNDS = {
  maxPasses: { min: 1, max: 30 },
  maxUnknowns: { min: 1000, max: 20_000_000 },
} as const;

/**
 * `adaptiveRefinement` on any analysis: solve, estimate the error per element, refine the elements holding
 * `fraction` of it (Dörfler marking, conforming bisection), solve again, until the estimated relative error —
 * or the change of `quantity` between passes (full-wave: max |ΔS| at the adaptation frequency) — is below
 * `tolerance`, or `maxPasses` / `maxUnknowns` stops it. Absent: the run solves on the given mesh, as before.
 */
export const AdaptiveRefinement = z.object({
  /** 0.01 = 1 %; default 0.01, full-wave 0.02 (|ΔS|) */
  tolerance: z.number().gt(0).lt(1).optional(),
  /** a quantity the analysis produces (e.g. max_von_mises_Pa, capacitance_F; full-wave: S) */
  quantity: z.string().min(1).optional(),
  maxPasses: z
    .number()
    .int()
    .min(ADAPTIVE_BOUNDS.maxPasses.min)
    .max(ADAPTIVE_BOUNDS.maxPasses.max)
    .default(ADAPTIVE_DEFAULTS.maxPasses),
  maxUnknowns: z
    .number()
    .int()
    .min(ADAPTIVE_BOUNDS.maxUnknowns.min)
    .max(ADAPTIVE_BOUNDS.maxUnknowns.max)
    .default(ADAPTIVE_DEFAULTS.maxUnknowns),
  fraction: z.number().gt(0).max(1).default(ADAPTIVE_DEFAULTS.fraction),
  /** full-wave and harmonic response: the adaptation frequency in Hz (default: the sweep's highest; harmonic:
   * else harmonicFieldFrequency) */
  frequency: z.number().positive().optional(),
});
export type AdaptiveRefinement = z.infer<typeof AdaptiveRefinement>;

export const commonKeys = {
  analysisType: z.enum(ANALYSIS_TYPES).default('em'),
  mode: z.string().optional(),
  meshingOnly: z.boolean().default(false),
  tolerance: z.number().positive().default(d.tolerance),
  maxIterations: z.number().int().positive().default(d.maxIterations),
  density: z.number().positive().default(d.density),
  heatCapacity: z.number().positive().default(d.heatCapacity),
  bodyMaterials: z.array(BodyMaterial).default([]),
  neumannConditions: z.array(NeumannCondition).default([]),
  transient: z.boolean().default(false),
  timeStep: z.number().positive().default(d.timeStep),
  endTime: z.number().positive().default(d.endTime),
  timeScheme: z.enum(TIME_SCHEMES).default('newmark'),
  probePoints: z.array(ProbePoint).default([]),
  useCurvedMesh: z.boolean().default(false),
  useCurvedGeometry: z.boolean().default(false),
  meshOrder: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(1),
  /** Solver choice: auto picks a direct solver for small systems, else CG + AMG/BDDC (GMRES + BDDC for full-wave). */
  linearSolver: z.enum(LINEAR_SOLVERS).default('auto'),
  animate: z.boolean().default(false),
  animationFrames: z.number().int().min(10).max(200).default(d.animationFrames),
  gridFieldsEnabled: z.boolean().default(false),
  gridResolution: z
    .tuple([
      z.number().int().min(1).max(256),
      z.number().int().min(1).max(256),
      z.number().int().min(1).max(256),
    ])
    .optional(),
  gridResolutionX: z.number().int().min(1).max(256).default(10),
  gridResolutionY: z.number().int().min(1).max(256).default(10),
  gridResolutionZ: z.number().int().min(1).max(256).default(10),
  gridPaddingFactor: z.number().min(0).max(1).default(d.gridPaddingFactor),
  verbose: z.boolean().default(false),
  autoRunAnalysis: z.boolean().default(false),
  adaptiveRefinement: AdaptiveRefinement.optional(),
  // Meshing (analysisType "tetra-only"). Sizes are in the model's length unit.
  /** global maximum element size; automatic (bounding-box diagonal / 20) when absent */
  meshMaxSize: z.number().positive().optional(),
  /** smallest element size curvature refinement may reach; automatic (max / 50) when absent */
  meshMinSize: z.number().positive().optional(),
  /** refine curved CAD faces to `meshElementsPerCircle` elements per full circle */
  meshCurvatureRefinement: z.boolean().default(true),
  meshElementsPerCircle: z.number().int().min(3).max(120).default(12),
  meshBodyMaxSizes: z.array(MeshBodySize).default([]),
  /** how fast element sizes may grow away from small features (0–1, Netgen's grading; gmsh grades by its own rules) */
  meshGrading: z.number().gt(0).max(1).default(0.3),
  /** auto = gmsh HXT, then gmsh Delaunay, then Netgen */
  meshAlgorithm: z.enum(MESH_ALGORITHMS).default('auto'),
  /** safe = repairs that keep the shape (reported); none = report every defect instead */
  meshRepair: z.enum(MESH_REPAIR_MODES).default('safe'),
  /** also allow repairs that change the shape (filling holes) */
  meshAllowShapeRepair: z.boolean().default(false),
};

/**
 * What a design study may collect from one analysis type's results (docs/studies.md): the scalar names of
 * `results.quantities` its engine family documents, and which indexed results it produces —
 * `frequencies[i]` (natural or cavity frequencies, Hz) and S-parameters at a frequency (`|S21|@10e9`,
 * `dB(S21)@10e9`, `phase(S21)@10e9`). Each family's contract file lists its own.
 */
export interface StudyOutputCatalogue {
  quantities: readonly string[];
  frequencies?: boolean;
  sParameters?: boolean;
}
