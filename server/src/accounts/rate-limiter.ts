import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** A limit: at most `max` hits per `windowSeconds` for one key. */
export interface Limit {
  max: number;
  windowSeconds: number;
}

export interface LimitDecision {
  allowed: boolean;
  /** Seconds until the key's window ends (when a refused caller may try again). */
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters kept in the database, one row per key, bumped with a single atomic upsert.
 * Several server processes that share one PostgreSQL therefore count together, and a restart does not
 * reset a lockout. Only auth endpoints use it, so one write per call is cheap.
 */
export class RateLimiter {
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one hit against `key` and says whether it is within `limit`. */
  async hit(key: string, limit: Limit): Promise<LimitDecision> {
    const t = this.now();
    const resetAt = t + limit.windowSeconds * 1000;
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, count: 1, reset_at: resetAt })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when rate_limits.reset_at <= ${t} then 1 else rate_limits.count + 1 end`,
          reset_at: sql<number>`case when rate_limits.reset_at <= ${t} then ${resetAt} else rate_limits.reset_at end`,
        }),
      )
      .returning(['count', 'reset_at'])
      .executeTakeFirstOrThrow();
    await this.sweepNowAndThen(t);
    return {
      allowed: Number(row.count) <= limit.max,
      retryAfterSeconds: Math.max(1, Math.ceil((Number(row.reset_at) - t) / 1000)),
    };
  }

  /** Hits every key; refused if any is over its limit (all are counted, so probing one key costs all). */
  async hitAll(hits: Array<{ key: string; limit: Limit }>): Promise<LimitDecision> {
    let refused: LimitDecision | null = null;
    for (const { key, limit } of hits) {
      const d = await this.hit(key, limit);
      if (!d.allowed && (!refused || d.retryAfterSeconds > refused.retryAfterSeconds)) refused = d;
    }
    return refused ?? { allowed: true, retryAfterSeconds: 0 };
  }

  /** Forgets a key, e.g. an account's failed-login count after a successful login. */
  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', '=', key).execute();
  }

  /** Deletes expired windows every few minutes so the table stays the size of current activity. */
  private async sweepNowAndThen(t: number): Promise<void> {
    if (t - this.lastSweep < 5 * 60_000) return;
    this.lastSweep = t;
    await this.db.deleteFrom('rate_limits').where('reset_at', '<', t).execute();
  }
}
