import { requireCaller } from '../admin/current-caller.ts';
import type { Db } from '../db/database.ts';
import type { Route } from '../http/route.ts';
import { AwsBatchQueue } from '../jobs/aws-batch-queue.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { syncBatchUsage } from './batch-usage.ts';
import type { ComputeAccounts } from './compute-accounts.ts';
import type { Metering } from './metering.ts';

export interface UsageRouteDeps {
  db: Db;
  accounts: ComputeAccounts;
  metering: Metering;
  queue: JobQueue;
}

/** Usage sync (spec 000 §7): reconcile the ledger from the job records. */
export function registerUsageRoutes(route: Route, deps: UsageRouteDeps): void {
  route({
    method: 'post',
    path: '/api/user/sync-usage',
    summary: 'Reconcile usage from job records (idempotent)',
    tag: 'usage',
    auth: requireCaller,
    handler: async ({ auth: caller }) => {
      const result = await deps.accounts.syncUsage(caller.userId);
      const queue = deps.queue;
      if (queue instanceof AwsBatchQueue) {
        // COMPUTE_BACKEND=aws-batch: also the time Batch measured beyond the workers' own.
        const batch = await syncBatchUsage(
          { db: deps.db, metering: deps.metering, describe: (ids) => queue.describe(ids) },
          caller.userId,
        );
        result.hours_added = Math.round((result.hours_added + batch.hours_added) * 1e6) / 1e6;
        result.jobs_reconciled += batch.jobs_reconciled;
      }
      return { success: true, ...result };
    },
  });
}
