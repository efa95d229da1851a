import type { Kysely } from 'kysely';

// The same migration runs on SQLite and PostgreSQL: only portable column types.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_user_id', 'text')
    .addColumn('owner_session_hash', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('queued_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('worker_id', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('compute_seconds', 'double precision')
    .addColumn('cost_tokens', 'double precision')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('input_location', 'text', (c) => c.notNull())
    .addColumn('result_location', 'text')
    .addColumn('analysis_type', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_status_queued_at').on('jobs').columns(['status', 'queued_at']).execute();
  await db.schema.createIndex('jobs_owner_user').on('jobs').columns(['owner_user_id', 'queued_at']).execute();
  await db.schema.createIndex('jobs_owner_session').on('jobs').columns(['owner_session_hash']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
  await db.schema.dropTable('sessions').execute();
}
