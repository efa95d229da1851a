import type { Db } from '../db/database.ts';
import { AwsBatchQueue } from '../jobs/aws-batch-queue.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { syncBatchUsage } from './batch-usage.ts';
import type { ComputeAccounts } from './compute-accounts.ts';
import type { Metering } from './metering.ts';

export interface UsageSyncDeps {
  db: Db;
  accounts: Pick<ComputeAccounts, 'syncUsage'>;
  metering: Metering;
  queue: JobQueue;
}

/** POST /api/user/sync-usage (spec 000 §7): reconciles the caller's ledger from the job records (idempotent). */
export class UsageSync {
  constructor(private readonly deps: UsageSyncDeps) {}

  async sync(userId: string): Promise<{ success: true; hours_added: number; jobs_reconciled: number }> {
    const result = await this.deps.accounts.syncUsage(userId);
    const { queue } = this.deps;
    if (queue instanceof AwsBatchQueue) {
      // COMPUTE_BACKEND=aws-batch: also the time Batch measured beyond the workers' own.
      const batch = await syncBatchUsage(
        { db: this.deps.db, metering: this.deps.metering, describe: (ids) => queue.describe(ids) },
        userId,
      );
      result.hours_added = Math.round((result.hours_added + batch.hours_added) * 1e6) / 1e6;
      result.jobs_reconciled += batch.jobs_reconciled;
    }
    return { success: true, ...result };
  }
}
