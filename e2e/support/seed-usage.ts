import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { UsageLedger } from '../../server/src/billing/usage-ledger.ts';
import { openDatabase } from '../../server/src/db/database.ts';

/**
 * Writes usage straight into a running server's ledger (its SQLite file, WAL mode), as metering would
 * after jobs that used `hours` of the allowance or `tokens` of the balance. Tests use it to reach the
 * usage thresholds without running hours of compute.
 */
export async function seedUsage(
  dataDir: string,
  userId: string,
  usage: { hours?: number; tokens?: number; planId?: string },
): Promise<void> {
  const { db, close } = openDatabase(`sqlite:${join(dataDir, 'fieldline.sqlite')}`);
  try {
    const id = randomUUID();
    await new UsageLedger(db).append({
      user_id: userId,
      entry_type: 'job_charge',
      tokens: -(usage.tokens ?? 0),
      hours: usage.hours ?? 0,
      compute_seconds: (usage.hours ?? usage.tokens ?? 0) * 3600,
      job_id: null,
      plan_id: usage.planId ?? null,
      source: 'e2e-seed',
      source_id: id,
      description: 'usage seeded by a browser test',
    });
  } finally {
    await close();
  }
}
