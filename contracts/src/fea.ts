import { z } from 'zod';
import { AnalysisConfig } from './analysis/index.ts';
import { MeshData } from './mesh.ts';

/**
 * What a submission must hold, for /api/docs (the server checks it with spec 001 §5's messages:
 * "Invalid mesh data: No vertices found." …; schemathesis found `mesh_data: {}` documented yet refused):
 * an analysis needs a volume mesh (vertices and tetrahedra); a meshing job may instead send a surface
 * (vertices and faces), multi-body `meshes`, or name the upload to mesh (`source_upload_id`).
 */
const nonEmpty = (...keys: string[]) => ({
  required: keys,
  properties: Object.fromEntries(keys.map((k) => [k, { minItems: 1 }])),
});
const MESHING_JOB = {
  anyOf: [
    { required: ['meshingOnly'], properties: { meshingOnly: { const: true } } },
    { required: ['analysisType'], properties: { analysisType: { const: 'tetra-only' } } },
  ],
};
const SUBMISSION_NEEDS = [
  { properties: { mesh_data: nonEmpty('vertices', 'tetrahedra') } },
  { properties: { mesh_data: nonEmpty('vertices', 'faces'), config: MESHING_JOB } },
  {
    properties: {
      mesh_data: {
        ...nonEmpty('meshes'),
        properties: { meshes: { minItems: 1, items: nonEmpty('vertices', 'faces') } },
      },
      config: MESHING_JOB,
    },
  },
  {
    properties: {
      mesh_data: { required: ['source_upload_id'], properties: { source_upload_id: { minLength: 1 } } },
      config: MESHING_JOB,
    },
  },
];

/** POST /api/fea/submit (spec 001 §7). */
export const SubmitRequest = z
  .object({
    mesh_data: MeshData.meta({
      description:
        'The model: vertices with tetrahedra (a volume mesh); a meshing job may send a surface (vertices and faces), multi-body `meshes`, or name an upload (`source_upload_id`)',
    }),
    config: AnalysisConfig,
  })
  .meta({ anyOf: SUBMISSION_NEEDS });
export type SubmitRequest = z.infer<typeof SubmitRequest>;

export const SubmitResponse = z.object({
  status: z.enum(['queued', 'error']),
  job_id: z.string().optional(),
  message: z.string(),
  error: z.string().optional(),
});
export type SubmitResponse = z.infer<typeof SubmitResponse>;

export const JOB_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export const JobState = z.enum(JOB_STATES);
export type JobState = z.infer<typeof JobState>;

/** GET /api/fea/status/{jobId} (spec 001 §3 Job status). */
export const JobStatusResponse = z.object({
  job_id: z.string(),
  status: JobState,
  progress: z.number().min(0).max(100),
  message: z.string().optional(),
  error: z.string().optional(),
  results: z.unknown().optional(),
  type: z.string().optional(),
  success_count: z.number().optional(),
  mesh_count: z.number().optional(),
  /** failed meshing jobs: where the problem markers are (also GET /results/tetra_output.json) */
  problem_markers: z.string().optional(),
});
export type JobStatusResponse = z.infer<typeof JobStatusResponse>;

/** GET /api/fea/download/{jobId}?format=…: the results JSON, or the S-parameters as Touchstone / CSV. */
export const DOWNLOAD_FORMATS = ['json', 'touchstone', 'csv'] as const;
export const DownloadQuery = z.object({ format: z.enum(DOWNLOAD_FORMATS).default('json') });
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

/** GET /api/fea/health. */
export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  engine: z.object({
    available: z.boolean(),
    versions: z.record(z.string(), z.string()).optional(),
    direct_solvers: z.array(z.string()).optional(),
    error: z.string().optional(),
  }),
  queue: z.object({
    backend: z.string(),
    slots: z.number().int(),
    running: z.number().int(),
    queued: z.number().int(),
    workers: z.number().int(),
    /** Depth per named queue (`priority`, `standard`). */
    queues: z
      .array(z.object({ name: z.string(), queued: z.number().int(), running: z.number().int() }))
      .optional(),
  }),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

/** Results (spec 001 §3); the engine writes more keys than these, so the schema passes them through. */
export const FieldMagnitudes = z.object({
  format: z.enum(['dense', 'sparse']),
  data: z.union([z.array(z.number()), z.record(z.string(), z.number())]),
  size: z.number().int(),
});
export const VectorField = z.object({
  format: z.enum(['dense', 'sparse']),
  data: z.record(z.string(), z.tuple([z.number(), z.number(), z.number()])),
  size: z.number().int(),
});
export const SolverInfo = z
  .object({
    elements: z.number().int(),
    matrix_size: z.number().int(),
    non_zeros: z.number().int(),
    frequency: z.number(),
  })
  .passthrough();
export const AnalysisResults = z
  .object({
    solver_info: SolverInfo,
    computation_time: z.number(),
    vertices: z.array(z.tuple([z.number(), z.number(), z.number()])),
    faces: z.array(z.array(z.number().int())),
    tetrahedra: z.array(z.array(z.number().int())).optional(),
    field_magnitudes: z.object({ e_magnitudes: FieldMagnitudes, h_magnitudes: FieldMagnitudes.optional() }),
    efields: VectorField.optional(),
    hfields: VectorField.optional(),
  })
  .passthrough();
export type AnalysisResults = z.infer<typeof AnalysisResults>;

/** POST /api/fea/cancel/{jobId}: `cancelling` while the worker stops the solver. */
export const CancelResponse = z.object({
  job_id: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled', 'cancelling']),
  message: z.string(),
});
export type CancelResponse = z.infer<typeof CancelResponse>;

/** POST /api/fea/save/{jobId} and POST /api/uploads/{id}/save. */
export const SaveResponse = z.object({
  job_id: z.string().optional(),
  upload_id: z.string().optional(),
  saved: z.boolean(),
  message: z.string(),
});
export type SaveResponse = z.infer<typeof SaveResponse>;
