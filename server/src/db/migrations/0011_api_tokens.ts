import type { Kysely } from 'kysely';

/**
 * Personal API tokens (issue 38). A token row keeps only the keyed hash of its secret (a leaked
 * database yields no usable token); a job remembers the token that submitted it (by id, and by name
 * for the ledger and the debug panel, since a revoked token's row stays for that record).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_tokens_user_id').on('api_tokens').column('user_id').execute();
  await db.schema.alterTable('jobs').addColumn('api_token_id', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('api_token_name', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('api_token_name').execute();
  await db.schema.alterTable('jobs').dropColumn('api_token_id').execute();
  await db.schema.dropTable('api_tokens').execute();
}
