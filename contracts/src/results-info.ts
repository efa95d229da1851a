import { z } from 'zod';

/** One named field of a result, without its data (docs/multiphysics.md §1). */
const ResultFieldInfo = z.object({
  name: z.string(),
  label: z.string(),
  unit: z.string().nullable(),
  kind: z.string().nullable(),
  location: z.string(),
  complex: z.boolean(),
  role: z.string().optional(),
});

/** What a completed job's results file holds: analysis, fields, derived quantities, extras. */
export const ResultsContents = z.object({
  analysis: z.string().nullable(),
  frequency: z.number().nullable(),
  elements: z.number().nullable(),
  matrix_size: z.number().nullable(),
  vertices: z.number().int(),
  field_magnitudes: z.array(z.string()),
  fields: z.array(ResultFieldInfo),
  quantities: z.array(z.string()),
  complex_fields: z.boolean(),
  grid: z.object({ resolution: z.unknown() }).nullable(),
  animation: z
    .object({
      frames: z.number().nullable(),
      axis: z.string().nullable(),
      unit: z.string().nullable(),
      fields: z.array(z.string()),
    })
    .nullable(),
});

/** GET /api/fea/results/{jobId}/info: the job's bookkeeping, its files and what its results hold. */
export const ResultsInfoResponse = z.object({
  job_id: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
  kind: z.enum(['meshing', 'analysis']),
  analysis_type: z.string(),
  queue: z.string(),
  queued_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  attempts: z.number().int(),
  compute_seconds: z.number().nullable(),
  cost_tokens: z.number().nullable(),
  cost_hours: z.number().nullable(),
  saved: z.boolean(),
  expires_at: z.string().nullable(),
  files: z.array(z.object({ name: z.string(), bytes: z.number() })),
  files_deleted_at: z.string().nullable(),
  /** Null until the job completed, and after its files were deleted. */
  contents: ResultsContents.nullable(),
  error: z.string().nullable(),
});
export type ResultsInfoResponse = z.infer<typeof ResultsInfoResponse>;
