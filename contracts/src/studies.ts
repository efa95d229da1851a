import { z } from 'zod';
import { AnalysisConfigFields } from './analysis/index.ts';
import { MeshData } from './mesh.ts';

/** Design studies (docs/studies.md): parameter sweeps and mesh-convergence studies run as ordinary jobs. */

/** The most points one study may have (a 400 above, naming the count). */
export const STUDY_MAX_POINTS = 200;
/** The most points a mesh-convergence study may run. */
export const CONVERGENCE_MAX_POINTS = 12;

/** A path to one number of the analysis config: `forceLoads[0].force[2]`, `frequency`, `meshMaxSize`. */
export const PARAMETER_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\[\d+\]|\.[A-Za-z_][A-Za-z0-9_]*)*$/;
/** Config keys that change the mesh: a study varying one meshes each point from the upload first. */
export const MESH_PARAMETERS = [
  'meshMaxSize',
  'meshMinSize',
  'meshGrading',
  'meshElementsPerCircle',
] as const;

const path = z
  .string()
  .regex(PARAMETER_PATH, 'a parameter path names a config number, e.g. "forceLoads[0].force[2]"');
const finite = z.number().refine(Number.isFinite, 'must be a finite number');

/** `{path, values}`: these values, in this order. */
export const ParameterValues = z.object({ path, values: z.array(finite).min(1) });
/** `{path, from, to, steps, scale}`: `steps` values from `from` to `to` (both included), evenly or log-spaced. */
export const ParameterRange = z.object({
  path,
  from: finite,
  to: finite,
  steps: z.number().int().min(1).max(STUDY_MAX_POINTS),
  scale: z.enum(['linear', 'log']).default('linear'),
});
export const StudyParameter = z.union([ParameterValues, ParameterRange]);
export type StudyParameter = z.infer<typeof StudyParameter>;

/**
 * A mesh-convergence study: the first point meshes at `startSize` (model units), each next one at the
 * previous size divided by `ratio`, until `output` changes by less than `tolerance` (relative) between
 * two successive points, or `maxPoints` ran.
 */
export const ConvergenceSpec = z.object({
  output: z.string().min(1),
  tolerance: z.number().gt(0).lt(1),
  startSize: z.number().positive(),
  ratio: z
    .number()
    .gt(1, 'ratio must be above 1: each point’s size is the previous one divided by it')
    .max(4),
  maxPoints: z.number().int().min(2).max(CONVERGENCE_MAX_POINTS).default(6),
});
export type ConvergenceSpec = z.infer<typeof ConvergenceSpec>;

export const STUDY_COMBINE = ['grid', 'zip'] as const;

/** POST /api/fea/studies. */
export const CreateStudyRequest = z.object({
  name: z.string().trim().min(1).max(200),
  /** The model as the environment holds it; with `source_upload_id` (or `upload_id`) mesh parameters re-mesh it. */
  mesh_data: MeshData.optional(),
  /** convert-step's upload: meshed for every point when a mesh parameter (or a convergence study) asks. */
  upload_id: z.string().min(1).optional(),
  /** The analysis config every point starts from (checked per point with the full AnalysisConfig). */
  config: AnalysisConfigFields,
  parameters: z.array(StudyParameter).max(8).default([]),
  combine: z.enum(STUDY_COMBINE).default('grid'),
  /** results' quantity names and indexed results (`frequencies[0]`, `|S21|@10e9`) collected per point */
  outputs: z.array(z.string().min(1).max(100)).min(1).max(20),
  convergence: ConvergenceSpec.optional(),
});
export type CreateStudyRequest = z.infer<typeof CreateStudyRequest>;

export const STUDY_POINT_STATES = [
  'pending',
  'meshing',
  'queued',
  'running',
  'completed',
  'failed',
  'cancelled',
] as const;
export const StudyPointState = z.enum(STUDY_POINT_STATES);
export type StudyPointState = z.infer<typeof StudyPointState>;
export const STUDY_STATES = ['running', 'completed', 'cancelled'] as const;

const outputValue = z.number().nullable();

export const StudyPoint = z.object({
  index: z.number().int(),
  /** path → value of this point */
  parameters: z.record(z.string(), z.number()),
  status: StudyPointState,
  job_id: z.string().nullable(),
  /** the meshing job of a point that re-meshes the upload */
  mesh_job_id: z.string().nullable(),
  /** output name → value; null while not known, or when the results do not hold it (`output_errors` says why) */
  outputs: z.record(z.string(), outputValue),
  output_errors: z.record(z.string(), z.string()).optional(),
  error: z.string().nullable(),
  compute_seconds: z.number().nullable(),
  cost_tokens: z.number().nullable(),
  tetrahedra: z.number().int().nullable(),
  /**
   * SHA-256 content hash of the mesh the point's analysis ran on (contracts `meshHashBytes`, stored with its
   * job as with any analysis job): equal hashes mean the same vertices and tetrahedra, so two points' fields
   * can be subtracted, and a chained run (`fieldsFrom`, GET /api/fea/chain-sources) can take this point's
   * fields on that mesh. Null until the point's analysis job exists.
   */
  mesh_hash: z.string().nullable(),
});
export type StudyPoint = z.infer<typeof StudyPoint>;

export const StudyProgress = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  meshing: z.number().int(),
  queued: z.number().int(),
  running: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  /** finished points (completed, failed or cancelled) / total, 0–100 */
  percent: z.number(),
});
export type StudyProgress = z.infer<typeof StudyProgress>;

export const ConvergenceReport = z.object({
  output: z.string(),
  tolerance: z.number(),
  converged: z.boolean(),
  /** the finest point's value */
  value: z.number().nullable(),
  /** Richardson-extrapolated value from the last three points (null with fewer, or no monotone convergence) */
  extrapolated: z.number().nullable(),
  /** estimated error of `value`: Fs·|value − extrapolated| (Roache's GCI), else the last change between points */
  error_estimate: z.number().nullable(),
  observed_order: z.number().nullable(),
  /** the GCI's Fs: 1.25 when a fourth point confirms the observed order (asymptotic range), else 3 */
  safety_factor: z.number().nullable(),
  /** relative change between the last two points */
  last_change: z.number().nullable(),
  sizes: z.array(z.number()),
  message: z.string(),
});
export type ConvergenceReport = z.infer<typeof ConvergenceReport>;

export const StudySummary = z.object({
  study_id: z.string(),
  name: z.string(),
  kind: z.enum(['sweep', 'convergence']),
  analysis_type: z.string(),
  status: z.enum(STUDY_STATES),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  combine: z.enum(STUDY_COMBINE),
  outputs: z.array(z.string()),
  /** swept paths with their values */
  parameters: z.array(z.object({ path: z.string(), values: z.array(z.number()) })),
  progress: StudyProgress,
  /** the estimate the study was admitted with (compute seconds over every point) */
  estimate_seconds: z.number(),
  /**
   * every point meshes the upload first (a mesh setting swept, a convergence study, or no volume mesh given):
   * points may run on different meshes (compare their `mesh_hash`); otherwise all share the given mesh
   */
  remeshes: z.boolean(),
});
export type StudySummary = z.infer<typeof StudySummary>;

export const StudyResponse = StudySummary.extend({
  points: z.array(StudyPoint),
  convergence: ConvergenceReport.nullable(),
});
export type StudyResponse = z.infer<typeof StudyResponse>;

export const CreateStudyResponse = z.object({
  study_id: z.string(),
  points: z.array(z.object({ index: z.number().int(), parameters: z.record(z.string(), z.number()) })),
  estimate_seconds: z.number(),
  message: z.string(),
});
export type CreateStudyResponse = z.infer<typeof CreateStudyResponse>;

export const StudyListResponse = z.object({ studies: z.array(StudySummary) });
export type StudyListResponse = z.infer<typeof StudyListResponse>;

export const StudyParams = z.object({ studyId: z.string().uuid() });
export const StudyTableQuery = z.object({ format: z.enum(['json', 'csv']).default('json') });
export const StudyTableResponse = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
});
export type StudyTableResponse = z.infer<typeof StudyTableResponse>;

export const CancelStudyResponse = z.object({
  study_id: z.string(),
  status: z.enum(STUDY_STATES),
  /** queued or waiting points cancelled at once */
  cancelled: z.number().int(),
  /** running points being stopped (time used is charged) */
  stopping: z.number().int(),
  /** finished points kept */
  kept: z.number().int(),
  message: z.string(),
});
export type CancelStudyResponse = z.infer<typeof CancelStudyResponse>;
