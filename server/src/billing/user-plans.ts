import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { DEFAULT_PLAN_ID, type Plan, type PlanCatalog } from './plan-catalog.ts';
import { noteUsageChange } from './usage-changes.ts';

export interface EffectivePlan {
  id: string;
  plan: Plan;
  status: string;
  /** Start of the current billing period: subscription hours are counted from here. */
  periodStart: string;
  currentPeriodEnd: string | null;
}

/**
 * Subscription statuses that keep the plan's allowance. `past_due` is included: Stripe is retrying the
 * payment (dunning) and the customer keeps the plan meanwhile; it ends as `canceled` or `unpaid`.
 */
export const LIVE_SUBSCRIPTION_STATUSES: readonly string[] = ['active', 'trialing', 'past_due'];

/** Start of the current calendar month (UTC): the period of plans without a stored one. */
function monthStart(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

/**
 * Each user's effective plan for compute and billing. A `user_plans` row records the subscription
 * state (billing writes it through setPlan when a subscription starts, renews or ends, which also
 * sets `users.plan`); a row that is not active means the default 'token' plan; no row means
 * `users.plan`. Compute only reads.
 */
export class UserPlans {
  constructor(
    private readonly db: Db,
    private readonly catalog: PlanCatalog,
  ) {}

  /** Pass `trx` inside a transaction: SQLite has one connection, and `db` would wait for it forever. */
  async planOf(userId: string, trx: Kysely<Database> = this.db, now = new Date()): Promise<EffectivePlan> {
    const row = await trx
      .selectFrom('user_plans')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const active =
      row && (LIVE_SUBSCRIPTION_STATUSES.includes(row.status) || row.plan_id === DEFAULT_PLAN_ID);
    const { id, plan } = this.catalog.resolve(active ? row.plan_id : DEFAULT_PLAN_ID);
    return {
      id,
      plan,
      status: row?.status ?? 'active',
      periodStart: (active && row.period_start) || monthStart(now),
      currentPeriodEnd: active ? (row.current_period_end ?? null) : null,
    };
  }

  /** Pass `trx` to write inside the caller's transaction (billing records the webhook event in the same one). */
  async setPlan(
    userId: string,
    planId: string,
    opts: { status?: string; periodStart?: string | null; currentPeriodEnd?: string | null } = {},
    trx?: Kysely<Database>,
  ): Promise<void> {
    if (!this.catalog.get(planId)) throw new Error(`unknown plan '${planId}'`);
    noteUsageChange(userId);
    const values = {
      user_id: userId,
      plan_id: planId,
      status: opts.status ?? 'active',
      period_start: opts.periodStart ?? null,
      current_period_end: opts.currentPeriodEnd ?? null,
      updated_at: new Date().toISOString(),
    };
    const write = async (trx: Kysely<Database>) => {
      await trx
        .insertInto('user_plans')
        .values(values)
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values }))
        .execute();
      // Keep the account's plan (what /api/auth/check reports) in step with the effective plan.
      const effective = LIVE_SUBSCRIPTION_STATUSES.includes(values.status) ? planId : DEFAULT_PLAN_ID;
      await trx
        .updateTable('users')
        .set({ plan: effective, updated_at: values.updated_at })
        .where('id', '=', userId)
        .execute();
    };
    if (trx) await write(trx);
    else await this.db.transaction().execute(write);
  }
}
