import type { Kysely } from 'kysely';

// Uploaded geometry files (STEP/STL/OBJ/ZIP). The bytes live in upload storage under `storage_key`;
// the row says who owns them and what they hold. Portable column types only.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_user_id', 'text')
    .addColumn('owner_session_hash', 'text')
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'double precision', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('units', 'text', (c) => c.notNull())
    .addColumn('body_count', 'integer', (c) => c.notNull())
    .addColumn('triangle_count', 'integer', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('uploads_owner_user')
    .on('uploads')
    .columns(['owner_user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('uploads_owner_session')
    .on('uploads')
    .columns(['owner_session_hash'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('uploads').execute();
}
