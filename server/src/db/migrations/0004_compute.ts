import type { Kysely } from 'kysely';

/**
 * Compute (issue 8): the rest of the job model, per-attempt run records, the append-only usage
 * ledger, each user's effective plan, and the registry of queue workers. Portable column types only
 * (the same migration runs on SQLite and PostgreSQL); booleans are integers 0/1.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite adds one column per ALTER TABLE statement.
  const jobColumns: [string, 'text' | 'integer' | 'double precision', unknown][] = [
    ['cancel_requested', 'integer', 0],
    ['saved', 'integer', 0],
    ['expires_at', 'text', null],
    ['files_deleted_at', 'text', null],
    ['plan_id', 'text', null],
    ['estimate_seconds', 'double precision', null],
    ['cost_hours', 'double precision', null],
    ['model_bytes', 'integer', null],
    ['result_files', 'text', null],
  ];
  for (const [name, type, fallback] of jobColumns) {
    await db.schema
      .alterTable('jobs')
      .addColumn(name, type, (c) => (fallback === null ? c : c.notNull().defaultTo(fallback)))
      .execute();
  }
  await db.schema
    .createIndex('jobs_status_lease')
    .on('jobs')
    .columns(['status', 'lease_expires_at'])
    .execute();
  await db.schema.createIndex('jobs_expires_at').on('jobs').columns(['saved', 'expires_at']).execute();

  await db.schema
    .createTable('job_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('worker_id', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('outcome', 'text')
    .addColumn('seconds', 'double precision')
    .execute();
  await db.schema.createIndex('job_runs_job').on('job_runs').columns(['job_id', 'attempt']).execute();

  await db.schema
    .createTable('usage_ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('entry_type', 'text', (c) => c.notNull())
    .addColumn('tokens', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('hours', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('compute_seconds', 'double precision')
    .addColumn('job_id', 'text')
    .addColumn('plan_id', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    // One row per (source, source_id): a duplicate delivery, webhook replay or sync can't charge twice.
    .addUniqueConstraint('usage_ledger_source_unique', ['source', 'source_id'])
    .execute();
  await db.schema
    .createIndex('usage_ledger_user')
    .on('usage_ledger')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('user_plans')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('period_start', 'text')
    .addColumn('current_period_end', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('compute_workers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('backend', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('slots', 'integer', (c) => c.notNull())
    .addColumn('running', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('compute_workers').execute();
  await db.schema.dropTable('user_plans').execute();
  await db.schema.dropTable('usage_ledger').execute();
  await db.schema.dropTable('job_runs').execute();
}
