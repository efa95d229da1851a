import { z } from 'zod';

/** Spec 001 §5 enumerations. */
export const WAVE_PORT_MODES = ['TE10', 'TE20', 'TM01', 'TEM'] as const;
export const S_PARAM_METHODS = ['wave_port', 'field_integration', 'voltage_current', 'power_wave'] as const;
/** Frequency sweep of the S-parameters (issue 6 extension, docs/fullwave.md): a full solve per point, or an
 * adaptive reduced-order model built from a few full solves. */
export const S_PARAM_SWEEP_TYPES = ['uniform', 'adaptive'] as const;
/** The adaptive sweep's cap on full solves (the engine's fast_sweep.DEFAULT_MAX_SOLVES). */
export const ADAPTIVE_SWEEP_MAX_SOLVES = 20;
export const TIME_SCHEMES = ['newmark', 'explicit', 'implicit'] as const;
export const LINEAR_SOLVERS = ['auto', 'direct', 'cg-bddc', 'cg-amg'] as const;
export const ANALYSIS_TYPES = ['em', 'em-time', 'em-eigen', 'tetra-only'] as const;
/** Time-domain excitation waveforms (issue 7, docs/transient.md). */
export const PULSE_SHAPES = ['gaussian', 'modulated_gaussian', 'sinusoidal'] as const;
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

const faceList = z.array(z.number().int().nonnegative());

export const NeumannCondition = z.object({ faces: faceList, flux: z.number() });
export const ImpedanceCondition = z.object({
  faces: faceList,
  /** Surface impedance Z_s in Ω (e^{+jωt}). */
  impedance: z.object({ real: z.number(), imag: z.number() }),
  /** A good conductor instead of a fixed Z_s: Z_s = (1 + j)·√(ωμ/2σ) at each frequency (S/m). */
  conductivity: z.number().positive().optional(),
  /** Relative permeability of that conductor (default 1). */
  permeability: z.number().positive().optional(),
});
/** Face-based Dirichlet groups: a user picks faces, not nodes (issue 5). */
export const DirichletFaceCondition = z.object({
  faces: faceList,
  voltage: z.number(),
  name: z.string().optional(),
});
export const WavePort = z.object({
  portID: z.union([z.number(), z.string()]),
  faces: faceList,
  mode: z.enum(WAVE_PORT_MODES).default('TE10'),
  amplitude: z.number().default(1),
  phase: z.number().default(0),
});
export const AnisotropicMaterial = z.object({
  id: z.union([z.number(), z.string()]),
  permittivity: z.tuple([z.number(), z.number(), z.number()]).default([1, 1, 1]),
  permeability: z.tuple([z.number(), z.number(), z.number()]).default([1, 1, 1]),
  conductivity: z.tuple([z.number(), z.number(), z.number()]).default([0, 0, 0]),
});
const point3 = z.tuple([z.number(), z.number(), z.number()]);
/** A time-domain probe: [x, y, z] in model units, or a named point. */
export const ProbePoint = z.union([point3, z.object({ name: z.string().optional(), point: point3 })]);
/** A time-domain volume current J = density·g(t) (A/m²) in a body and/or an axis-aligned box (model units). */
export const VolumeCurrent = z.object({
  density: point3,
  region: z.union([z.number().int().nonnegative(), z.string()]).optional(),
  boxMin: point3.optional(),
  boxMax: point3.optional(),
  phase: z.number().default(0),
});
/** Per-body isotropic material (multi-body models); relative values, conductivity in S/m. */
export const BodyMaterial = z.object({
  region: z.union([z.number().int().nonnegative(), z.string()]),
  name: z.string().optional(),
  relativePermittivity: z.number().positive().default(1),
  relativePermeability: z.number().positive().default(1),
  conductivity: z.number().nonnegative().default(0),
  lossTangent: z.number().nonnegative().default(0),
});

/** Per-body maximum element size for multi-body models (body index or name; model units). */
export const MeshBodySize = z.object({
  region: z.union([z.number().int().nonnegative(), z.string()]),
  maxSize: z.number().positive(),
});

const d = ANALYSIS_DEFAULTS;

/**
 * The analysis configuration in its backend form (spec 001 §3). The UI's form maps onto it;
 * every field has the spec's default so a partial config is complete after parsing.
 */
export const AnalysisConfig = z
  .object({
    analysisType: z.enum(ANALYSIS_TYPES).default('em'),
    mode: z.string().optional(),
    meshingOnly: z.boolean().default(false),
    frequency: z.number().min(0).max(ANALYSIS_BOUNDS.frequencyHz.max).default(d.frequency),
    tolerance: z.number().positive().default(d.tolerance),
    maxIterations: z.number().int().positive().default(d.maxIterations),
    defaultPermittivity: z.number().positive().default(d.defaultPermittivity),
    defaultPermeability: z.number().positive().default(d.defaultPermeability),
    defaultConductivity: z.number().min(0).default(d.defaultConductivity),
    density: z.number().positive().default(d.density),
    heatCapacity: z.number().positive().default(d.heatCapacity),
    dirichletConditions: z.record(z.string(), z.number()).default({}),
    dirichletFaceConditions: z.array(DirichletFaceCondition).default([]),
    neumannConditions: z.array(NeumannCondition).default([]),
    impedanceConditions: z.array(ImpedanceCondition).default([]),
    referenceNode: z.number().int().nonnegative().nullable().optional(),
    transient: z.boolean().default(false),
    timeStep: z.number().positive().default(d.timeStep),
    endTime: z.number().positive().default(d.endTime),
    timeScheme: z.enum(TIME_SCHEMES).default('newmark'),
    /** Excitation waveform; width, delay and carrier frequency 0 mean automatic (docs/transient.md). */
    pulseShape: z.enum(PULSE_SHAPES).default(d.pulseShape),
    pulseWidth: z.number().min(0).default(0),
    pulseDelay: z.number().min(0).default(0),
    pulseFrequency: z.number().min(0).default(0),
    probePoints: z.array(ProbePoint).default([]),
    volumeCurrents: z.array(VolumeCurrent).default([]),
    useCurvedMesh: z.boolean().default(false),
    useCurvedGeometry: z.boolean().default(false),
    meshOrder: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(1),
    useRadialPML: z.boolean().default(false),
    pmlThickness: z.number().min(0.01).max(0.5).default(d.pmlThickness),
    pmlSigmaMax: z.number().positive().default(d.pmlSigmaMax),
    useWavePorts: z.boolean().default(false),
    wavePorts: z.array(WavePort).default([]),
    calculateSParameters: z.boolean().default(false),
    portImpedance: z.number().positive().default(d.portImpedance),
    extractSParameters: z.boolean().default(false),
    sParamFreqMin: z.number().positive().default(d.sParamFreqMin),
    sParamFreqMax: z.number().positive().default(d.sParamFreqMax),
    sParamNumPoints: z.number().int().min(1).max(10001).default(d.sParamNumPoints),
    sParamMethod: z.enum(S_PARAM_METHODS).default('wave_port'),
    sParamSweepType: z.enum(S_PARAM_SWEEP_TYPES).default(d.sParamSweepType),
    sParamAdaptiveTolerance: z
      .number()
      .min(ANALYSIS_BOUNDS.sParamAdaptiveTolerance.min)
      .max(ANALYSIS_BOUNDS.sParamAdaptiveTolerance.max)
      .default(d.sParamAdaptiveTolerance),
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
    useAnisotropicMaterials: z.boolean().default(false),
    anisotropicMaterials: z.array(AnisotropicMaterial).default([]),
    bodyMaterials: z.array(BodyMaterial).default([]),
    /** Static/quasi-static solver choice (issue 5): auto picks direct up to 60 000 DOFs, else CG + AMG/BDDC. */
    linearSolver: z.enum(LINEAR_SOLVERS).default('auto'),
    /** em-eigen: number of cavity modes (docs/fullwave.md) and the 0-based mode whose fields are written. */
    eigenNumModes: z.number().int().min(1).max(50).default(6),
    eigenFieldMode: z.number().int().nonnegative().default(0),
    verbose: z.boolean().default(false),
    autoRunAnalysis: z.boolean().default(false),
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
  })
  .passthrough();
export type AnalysisConfig = z.infer<typeof AnalysisConfig>;
export type AnalysisConfigInput = z.input<typeof AnalysisConfig>;
