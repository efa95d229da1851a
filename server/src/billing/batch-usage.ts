import type { JobDetail } from '@aws-sdk/client-batch';
import type { Db } from '../db/database.ts';
import type { Metering } from './metering.ts';
import { roundUnits } from './usage-ledger.ts';

/** Ledger source of the charge for Batch-measured time beyond the worker's own measure. */
export const BATCH_SYNC_SOURCE = 'batch-sync';

/**
 * "Sync from AWS" with COMPUTE_BACKEND=aws-batch: a job is charged when it finishes for the worker's
 * claim-to-finish time; Batch measures the container's run (startedAt → stoppedAt of the Batch job
 * whose worker produced the result), which also covers start-up and upload. For every finished,
 * charged job of the user where Batch measured more, the difference is charged once, as a ledger row
 * ('batch-sync', jobId); the ledger's UNIQUE(source, source_id) makes a second sync add 0.
 */
export async function syncBatchUsage(
  deps: { db: Db; metering: Metering; describe: (batchJobIds: string[]) => Promise<JobDetail[]> },
  userId: string,
): Promise<{ hours_added: number; jobs_reconciled: number }> {
  const { db, metering } = deps;
  const rows = await db
    .selectFrom('jobs')
    .innerJoin('job_runs', (j) =>
      j.onRef('job_runs.job_id', '=', 'jobs.id').onRef('job_runs.attempt', '=', 'jobs.attempts'),
    )
    .innerJoin('usage_ledger as charged', (j) =>
      j.onRef('charged.source_id', '=', 'jobs.id').on('charged.source', '=', 'job'),
    )
    .leftJoin('usage_ledger as synced', (j) =>
      j.onRef('synced.source_id', '=', 'jobs.id').on('synced.source', '=', BATCH_SYNC_SOURCE),
    )
    .selectAll('jobs')
    .select('job_runs.worker_id as run_worker')
    .where('jobs.owner_user_id', '=', userId)
    .where('jobs.status', 'in', ['completed', 'failed', 'cancelled'])
    .where('jobs.compute_seconds', 'is not', null)
    .where('job_runs.worker_id', 'like', 'batch:%')
    .where('synced.id', 'is', null)
    .execute();
  if (rows.length === 0) return { hours_added: 0, jobs_reconciled: 0 };
  const measured = new Map<string, number>();
  for (const d of await deps.describe(rows.map((r) => r.run_worker.slice('batch:'.length)))) {
    if (d.jobId && d.startedAt && d.stoppedAt) measured.set(d.jobId, (d.stoppedAt - d.startedAt) / 1000);
  }
  let hours = 0;
  let reconciled = 0;
  for (const { run_worker, ...job } of rows) {
    const batchSeconds = measured.get(run_worker.slice('batch:'.length));
    const extra = batchSeconds === undefined ? 0 : batchSeconds - (job.compute_seconds ?? 0);
    if (extra <= 0) continue;
    const charge = await db.transaction().execute((trx) =>
      metering.chargeJob(
        trx,
        job,
        { status: job.status, errorCode: job.error_code, seconds: extra },
        {
          source: BATCH_SYNC_SOURCE,
          description: `${job.analysis_type} job: ${(extra / 60).toFixed(2)} compute-minutes measured by AWS Batch beyond the worker's`,
        },
      ),
    );
    if (charge.tokens > 0 || charge.hours > 0) {
      hours += extra / 3600;
      reconciled++;
    }
  }
  return { hours_added: roundUnits(hours), jobs_reconciled: reconciled };
}
