import type { Kysely } from 'kysely';

/**
 * Design studies (issue 37): a study and its points. Each point becomes an ordinary job when the owner's
 * plan has a free slot (`job_id` is chosen before the job row is written, so a restart in between writes
 * the same job again instead of a second one); a point that re-meshes the upload has a meshing job first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('studies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_user_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('analysis_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('spec', 'text', (c) => c.notNull())
    .addColumn('base_location', 'text')
    .addColumn('upload_id', 'text')
    .addColumn('plan_id', 'text', (c) => c.notNull())
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('estimate_seconds', 'real', (c) => c.notNull())
    .addColumn('model_bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('report', 'text')
    .execute();
  await db.schema
    .createIndex('studies_owner')
    .on('studies')
    .columns(['owner_user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('studies_status').on('studies').columns(['status']).execute();
  await db.schema
    .createTable('study_points')
    .addColumn('study_id', 'text', (c) => c.notNull())
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('parameters', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('estimate_seconds', 'real', (c) => c.notNull())
    .addColumn('mesh_job_id', 'text')
    .addColumn('job_id', 'text')
    .addColumn('outputs', 'text')
    .addColumn('error', 'text')
    .addColumn('tetrahedra', 'integer')
    .addColumn('finished_at', 'text')
    .addPrimaryKeyConstraint('study_points_pk', ['study_id', 'idx'])
    .execute();
  await db.schema.createIndex('study_points_job').on('study_points').columns(['job_id']).execute();
  await db.schema.createIndex('study_points_status').on('study_points').columns(['status']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('study_points').execute();
  await db.schema.dropTable('studies').execute();
}
