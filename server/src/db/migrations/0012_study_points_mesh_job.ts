import type { Kysely } from 'kysely';

/**
 * A study point's meshing job is looked up by its id as it completes (is it a point's? then its status
 * reply is built on demand, not at once: fea-service.ts `builtOnDemand`), as its analysis job already is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('study_points_mesh_job').on('study_points').columns(['mesh_job_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('study_points_mesh_job').execute();
}
