import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** The channel the status feed listens on (server/src/jobs/status-feed.ts). */
export const JOB_STATUS_CHANNEL = 'fieldline_job_status';

/**
 * PostgreSQL only (issue 20): every committed change of the columns a status reply is made of is
 * announced with `pg_notify` from a trigger, so every writer (API process, `fieldline worker`, Batch
 * container, retention, a manual UPDATE) feeds the other API processes' status caches, and a message is
 * sent only if its transaction commits. Lease-only heartbeats change none of these columns and send
 * nothing. A snapshot too large for a notification (8000 bytes) is sent as its id alone; a deleted row
 * as its id with `deleted`. SQLite has one process per database file: nothing to do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql
    .raw(`
CREATE OR REPLACE FUNCTION fieldline_job_status_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payload text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('${JOB_STATUS_CHANNEL}', json_build_object('id', OLD.id, 'deleted', true)::text);
    RETURN NULL;
  END IF;
  payload := json_build_object(
    'id', NEW.id,
    'owner_user_id', NEW.owner_user_id,
    'owner_session_hash', NEW.owner_session_hash,
    'kind', NEW.kind,
    'status', NEW.status,
    'progress', NEW.progress,
    'message', NEW.message,
    'error_message', NEW.error_message,
    'result_location', NEW.result_location,
    'files_deleted_at', NEW.files_deleted_at
  )::text;
  IF octet_length(payload) > 7900 THEN
    payload := json_build_object('id', NEW.id, 'truncated', true)::text;
  END IF;
  PERFORM pg_notify('${JOB_STATUS_CHANNEL}', payload);
  RETURN NULL;
END
$$`)
    .execute(db);
  await sql
    .raw(`
CREATE TRIGGER jobs_status_notify
  AFTER UPDATE ON jobs FOR EACH ROW
  WHEN (
    OLD.status IS DISTINCT FROM NEW.status
    OR OLD.progress IS DISTINCT FROM NEW.progress
    OR OLD.message IS DISTINCT FROM NEW.message
    OR OLD.error_message IS DISTINCT FROM NEW.error_message
    OR OLD.result_location IS DISTINCT FROM NEW.result_location
    OR OLD.files_deleted_at IS DISTINCT FROM NEW.files_deleted_at
    OR OLD.owner_user_id IS DISTINCT FROM NEW.owner_user_id
    OR OLD.owner_session_hash IS DISTINCT FROM NEW.owner_session_hash
  )
  EXECUTE FUNCTION fieldline_job_status_notify()`)
    .execute(db);
  await sql
    .raw(`
CREATE TRIGGER jobs_status_notify_delete
  AFTER DELETE ON jobs FOR EACH ROW
  EXECUTE FUNCTION fieldline_job_status_notify()`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql.raw('DROP TRIGGER IF EXISTS jobs_status_notify_delete ON jobs').execute(db);
  await sql.raw('DROP TRIGGER IF EXISTS jobs_status_notify ON jobs').execute(db);
  await sql.raw('DROP FUNCTION IF EXISTS fieldline_job_status_notify()').execute(db);
}
