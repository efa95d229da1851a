import type { Kysely } from 'kysely';

/**
 * Billing (issue 9): checkout sessions (ours, whichever provider runs them), the provider's customer
 * per user, subscriptions as the provider reports them, and the webhook events already processed.
 * Token credits and subscription periods are rows of compute's `usage_ledger` (0004). Portable column
 * types only; booleans are integers 0/1.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('checkout_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text')
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema
    .createIndex('checkout_sessions_external')
    .on('checkout_sessions')
    .columns(['provider', 'external_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('checkout_sessions_user')
    .on('checkout_sessions')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('billing_customers')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('price_id', 'text')
    .addColumn('customer_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('current_period_start', 'text')
    .addColumn('current_period_end', 'text')
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_user').on('subscriptions').columns(['user_id']).execute();

  // A webhook event id is recorded in the transaction that applies it: a replay finds it and does nothing.
  await db.schema
    .createTable('processed_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('event_created', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('processed_events').execute();
  await db.schema.dropTable('subscriptions').execute();
  await db.schema.dropTable('billing_customers').execute();
  await db.schema.dropTable('checkout_sessions').execute();
}
