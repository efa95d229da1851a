import type { FieldsFrom } from '@fieldline/contracts';
import { HttpError } from '../http/errors.ts';
import { FIELDS_FROM_REQUEST_FILE, type StoredResults } from '../jobs/fields-from.ts';
import type { JobOwner } from '../jobs/job-owner.ts';
import type { JobRow, JobService } from '../jobs/job-service.ts';
import { lengthOf } from '../jobs/job-storage.ts';

const refuse = (message: string) => new HttpError(400, 'invalid_fields_from', message, { status: 'error' });

/**
 * A chained run's source, checked at submit before a job row exists: the caller's own job (another user's is
 * "not found", exactly as a job that does not exist: the reply never tells them apart), completed, its
 * results still stored, on the same mesh (content hash), holding each named field (and the frame asked for).
 * Returns the source row and the small input file the worker reads (jobs/fields-from.ts).
 */
export async function checkFieldsFrom(
  jobs: JobService,
  owner: JobOwner,
  request: FieldsFrom,
  meshHash: string,
  retentionHours: number,
): Promise<{ source: JobRow; file: { name: string; body: Buffer } }> {
  const id = request.jobId;
  const source = await jobs.findOwned(id, owner);
  if (!source || source.kind !== 'analysis') throw refuse(`fieldsFrom: job ${id} was not found.`);
  if (source.status !== 'completed')
    throw refuse(`fieldsFrom: job ${id} is ${source.status}; a run takes fields only from a completed job.`);
  if (source.files_deleted_at || !source.result_location)
    throw refuse(
      `fieldsFrom: the results of job ${id} were deleted ${retentionHours} h after it finished because it was not saved.`,
    );
  if (source.mesh_hash !== meshHash)
    throw refuse(
      `fieldsFrom: job ${id} ran on another mesh; a run takes fields only from a job on the same mesh (the same vertices and tetrahedra).`,
    );
  // Read on the storage worker thread (issue 37): the catalogue and shapes, long arrays as their lengths.
  const results = (await jobs.files.readSummary(source.result_location)) as StoredResults;
  const names = Object.keys(results.fields ?? {});
  for (const name of request.fields)
    if (!names.includes(name))
      throw refuse(
        `fieldsFrom: job ${id} (${results.solver_info?.analysis ?? source.analysis_type}) has no ${name} field; its fields are ${names.join(', ') || 'none'}.`,
      );
  if (request.frame !== undefined) {
    const frames = lengthOf(results.animation?.data) ?? 0;
    if (frames === 0)
      throw refuse(`fieldsFrom.frame: job ${id} is a steady run without frames; leave frame out.`);
    const index = request.frame === 'last' ? frames - 1 : request.frame;
    if (index >= frames)
      throw refuse(
        `fieldsFrom.frame: job ${id} has ${frames} frames (0 to ${frames - 1}); frame ${index} is not one of them.`,
      );
    const inFrames = results.animation?.fields ?? [];
    const missing = request.fields.find((name) => !inFrames.includes(name));
    if (missing)
      throw refuse(
        `fieldsFrom.frame: the frames of job ${id} do not hold ${missing}; leave frame out to take its final ${missing}.`,
      );
  }
  return {
    source,
    file: { name: FIELDS_FROM_REQUEST_FILE, body: Buffer.from(JSON.stringify(request)) },
  };
}
