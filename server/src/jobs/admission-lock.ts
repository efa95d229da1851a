import { sql } from 'kysely';
import type { Db, DbDialect } from '../db/database.ts';

/**
 * Serialises "check the user's limits, then queue the job" per user, so two submissions racing each
 * other cannot both pass the balance and concurrency checks.
 *
 * PostgreSQL (possibly several API processes): a transaction-scoped advisory lock on the user id is
 * held while `work` runs; `work` writes through the pool and commits before the lock is released.
 * SQLite (one process by design): an in-process queue per user does the same.
 */
export class AdmissionLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly dialect: DbDialect,
  ) {}

  async run<T>(userId: string, work: () => Promise<T>): Promise<T> {
    if (this.dialect === 'postgres') {
      return this.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`admission:${userId}`}, 0))`.execute(trx);
        return work();
      });
    }
    return this.inProcess(userId, work);
  }

  private async inProcess<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(userId) ?? Promise.resolve();
    const current = previous.then(work, work);
    const tail = current.catch(() => undefined);
    this.tails.set(userId, tail);
    try {
      return await current;
    } finally {
      if (this.tails.get(userId) === tail) this.tails.delete(userId);
    }
  }
}
