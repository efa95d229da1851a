import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database, UsageLedgerTable } from '../db/schema.ts';
import { noteUsageChange } from './usage-changes.ts';

export type LedgerEntry = Omit<UsageLedgerTable, 'id' | 'created_at'> & { created_at?: string };

export interface Balance {
  /** Credits minus debits; never reported below 0. */
  tokensAvailable: number;
  tokensUsed: number;
  /** Everything credited: purchases and grants (welcome grant included). */
  tokensPurchased: number;
  /** Subscription compute hours consumed since `since`. */
  hoursUsed: number;
  lastComputeTime: string | null;
}

/** Rounds to micro-units so sums of many small charges stay exact enough to compare. */
export const roundUnits = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * The append-only usage ledger: every change to a user's tokens or hours is one row, keyed by
 * (source, source_id) so the same event can never be recorded twice. Balances are sums of rows.
 */
export class UsageLedger {
  constructor(private readonly db: Db) {}

  /** Appends a row; false (and nothing written) when one with the same (source, source_id) exists. */
  async append(entry: LedgerEntry, trx: Kysely<Database> = this.db): Promise<boolean> {
    noteUsageChange(entry.user_id);
    const result = await trx
      .insertInto('usage_ledger')
      .values({
        id: randomUUID(),
        created_at: entry.created_at ?? new Date().toISOString(),
        ...entry,
        tokens: roundUnits(entry.tokens),
        hours: roundUnits(entry.hours),
      })
      .onConflict((oc) => oc.columns(['source', 'source_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** The open-beta welcome grant; recorded once per user however often it is called. */
  grantWelcome(userId: string, tokens: number, trx: Kysely<Database> = this.db): Promise<boolean> {
    if (tokens <= 0) return Promise.resolve(false);
    return this.append(
      {
        user_id: userId,
        entry_type: 'grant',
        tokens,
        hours: 0,
        compute_seconds: null,
        job_id: null,
        plan_id: null,
        source: 'welcome',
        source_id: userId,
        description: `Open beta welcome grant: ${tokens} tokens`,
      },
      trx,
    );
  }

  async balance(userId: string, since: string, trx: Kysely<Database> = this.db): Promise<Balance> {
    const totals = await trx
      .selectFrom('usage_ledger')
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>('tokens'), eb.lit(0)).as('net'),
        eb.fn
          .coalesce(
            eb.fn.sum<number>(eb.case().when('tokens', '>', 0).then(eb.ref('tokens')).else(0).end()),
            eb.lit(0),
          )
          .as('credits'),
        eb.fn
          .max<string | null>(
            eb.case().when('entry_type', '=', 'job_charge').then(eb.ref('created_at')).end(),
          )
          .as('last'),
      ])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const hours = await trx
      .selectFrom('usage_ledger')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('hours'), eb.lit(0)).as('h'))
      .where('user_id', '=', userId)
      .where('created_at', '>=', since)
      .executeTakeFirst();
    const net = roundUnits(Number(totals?.net ?? 0));
    const credits = roundUnits(Number(totals?.credits ?? 0));
    return {
      tokensAvailable: Math.max(0, net),
      tokensUsed: roundUnits(credits - net),
      tokensPurchased: credits,
      hoursUsed: roundUnits(Number(hours?.h ?? 0)),
      lastComputeTime: totals?.last ?? null,
    };
  }

  async entries(userId: string, limit = 100): Promise<UsageLedgerTable[]> {
    return this.db
      .selectFrom('usage_ledger')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
  }
}
