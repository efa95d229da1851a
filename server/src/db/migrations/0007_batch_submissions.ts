import type { Kysely } from 'kysely';

/**
 * AWS Batch backend (issue 23): one row per SubmitJob of one of our jobs (a lost container's job is
 * submitted again), with Batch's last known state and its measured start and stop times.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('batch_submissions')
    .addColumn('batch_job_id', 'text', (c) => c.primaryKey())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('job_arn', 'text', (c) => c.notNull())
    .addColumn('job_queue', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'text', (c) => c.notNull())
    .addColumn('batch_status', 'text', (c) => c.notNull())
    .addColumn('status_reason', 'text')
    .addColumn('started_at', 'text')
    .addColumn('stopped_at', 'text')
    .execute();
  await db.schema.createIndex('batch_submissions_job').on('batch_submissions').columns(['job_id']).execute();
  await db.schema
    .createIndex('batch_submissions_status')
    .on('batch_submissions')
    .columns(['batch_status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('batch_submissions').execute();
}
