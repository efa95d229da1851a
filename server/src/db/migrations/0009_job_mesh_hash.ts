import type { Kysely } from 'kysely';

/**
 * Chained runs (issue 36): each analysis job stores a content hash of its mesh (vertices, tetrahedra and
 * unit), so a run taking another job's fields (`fieldsFrom`) is checked to be on the same mesh, and the
 * job it takes them from, so retention keeps that source while the run is queued or running.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('mesh_hash', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('fields_from_job_id', 'text').execute();
  await db.schema.createIndex('jobs_fields_from').on('jobs').columns(['fields_from_job_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_fields_from').execute();
  await db.schema.alterTable('jobs').dropColumn('fields_from_job_id').execute();
  await db.schema.alterTable('jobs').dropColumn('mesh_hash').execute();
}
