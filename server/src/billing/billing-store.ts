import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type {
  CheckoutSessionsTable,
  Database,
  ProcessedEventsTable,
  SubscriptionsTable,
} from '../db/schema.ts';
import { noteUsageChange } from './usage-changes.ts';
import { LIVE_SUBSCRIPTION_STATUSES } from './user-plans.ts';

export type CheckoutRow = CheckoutSessionsTable;
export type SubscriptionRow = SubscriptionsTable;

/** Queries on the billing tables of 0005_billing. Methods take `trx` where they run inside a transaction. */
export class BillingStore {
  constructor(private readonly db: Db) {}

  async insertCheckout(row: CheckoutRow): Promise<void> {
    await this.db.insertInto('checkout_sessions').values(row).execute();
  }

  async attachExternal(id: string, externalId: string, url: string): Promise<void> {
    await this.db
      .updateTable('checkout_sessions')
      .set({ external_id: externalId, url })
      .where('id', '=', id)
      .execute();
  }

  /** Marks a checkout that never reached the provider (its create call failed). */
  async failCheckout(id: string): Promise<void> {
    await this.db
      .updateTable('checkout_sessions')
      .set({ status: 'failed' })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .execute();
  }

  async checkout(id: string, trx: Kysely<Database> = this.db): Promise<CheckoutRow | null> {
    return (
      (await trx.selectFrom('checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
    );
  }

  async checkoutByExternal(
    provider: CheckoutRow['provider'],
    externalId: string,
    trx: Kysely<Database> = this.db,
  ): Promise<CheckoutRow | null> {
    return (
      (await trx
        .selectFrom('checkout_sessions')
        .selectAll()
        .where('provider', '=', provider)
        .where('external_id', '=', externalId)
        .executeTakeFirst()) ?? null
    );
  }

  /**
   * Moves an open checkout to a final status; false when it was not open any more (someone else
   * finished it first). This conditional update is what makes a double completion harmless.
   */
  async closeCheckout(
    trx: Kysely<Database>,
    id: string,
    status: 'completed' | 'cancelled' | 'expired' | 'failed',
    at = new Date().toISOString(),
  ): Promise<boolean> {
    const result = await trx
      .updateTable('checkout_sessions')
      .set({ status, completed_at: status === 'completed' ? at : null })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async customerOf(userId: string, trx: Kysely<Database> = this.db): Promise<string | null> {
    const row = await trx
      .selectFrom('billing_customers')
      .select('customer_id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.customer_id ?? null;
  }

  async userOfCustomer(customerId: string, trx: Kysely<Database> = this.db): Promise<string | null> {
    const row = await trx
      .selectFrom('billing_customers')
      .select('user_id')
      .where('customer_id', '=', customerId)
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  /** Links a provider customer to a user once; a second link for the same user keeps the first. */
  async linkCustomer(
    userId: string,
    provider: 'stripe' | 'local',
    customerId: string,
    trx: Kysely<Database> = this.db,
  ): Promise<void> {
    await trx
      .insertInto('billing_customers')
      .values({ user_id: userId, provider, customer_id: customerId, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async subscription(id: string, trx: Kysely<Database> = this.db): Promise<SubscriptionRow | null> {
    return (
      (await trx.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
    );
  }

  async upsertSubscription(trx: Kysely<Database>, row: Omit<SubscriptionRow, 'created_at'>): Promise<void> {
    const { id, ...rest } = row;
    noteUsageChange(row.user_id);
    await trx
      .insertInto('subscriptions')
      .values({ ...row, created_at: row.updated_at })
      .onConflict((oc) => oc.column('id').doUpdateSet(rest))
      .execute();
  }

  /** The user's subscriptions, live ones first, then the most recently changed. */
  async subscriptionsOf(userId: string, trx: Kysely<Database> = this.db): Promise<SubscriptionRow[]> {
    const rows = await trx.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).execute();
    const live = (r: SubscriptionRow) => (LIVE_SUBSCRIPTION_STATUSES.includes(r.status) ? 1 : 0);
    return rows.sort((a, b) => live(b) - live(a) || b.updated_at.localeCompare(a.updated_at));
  }

  /** Local subscriptions whose paid period is over (they renew or end when next looked at). */
  async dueLocalSubscriptions(userId: string, now: string): Promise<SubscriptionRow[]> {
    return this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('provider', '=', 'local')
      .where('status', 'in', [...LIVE_SUBSCRIPTION_STATUSES])
      .where('current_period_end', '<=', now)
      .execute();
  }

  async eventProcessed(id: string, trx: Kysely<Database> = this.db): Promise<boolean> {
    const row = await trx.selectFrom('processed_events').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  /** Records an event inside the transaction that applies it; false when it was already recorded. */
  async recordEvent(trx: Kysely<Database>, event: ProcessedEventsTable): Promise<boolean> {
    const result = await trx
      .insertInto('processed_events')
      .values(event)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }
}
