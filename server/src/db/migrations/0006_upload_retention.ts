import type { Kysely } from 'kysely';

/** Uploads a user saved are kept past the retention time (compute issue 8); 0/1 like jobs.saved. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('uploads')
    .addColumn('saved', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('uploads_retention').on('uploads').columns(['saved', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('uploads_retention').execute();
  await db.schema.alterTable('uploads').dropColumn('saved').execute();
}
