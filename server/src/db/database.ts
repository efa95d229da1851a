import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteAdapter, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations/index.ts';
import type { Database } from './schema.ts';
import { reusingStatements } from './statement-cache.ts';
import { WalSync } from './wal-sync.ts';

export type Db = Kysely<Database>;
export type DbDialect = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  dialect: DbDialect;
  close(): Promise<void>;
}

// Return int8/numeric columns as numbers (counts and sums stay far below 2^53).
pg.types.setTypeParser(20, (value) => Number(value));
pg.types.setTypeParser(1700, (value) => Number(value));

/**
 * Opens the database named by the URL: `sqlite:<file>` (default) or `postgres://…`. `onLostConnection`
 * hears of pooled PostgreSQL connections cut while idle (a database restart or failover).
 */
export function openDatabase(
  databaseUrl: string,
  onLostConnection: (err: Error) => void = (err) =>
    console.warn(`database: an idle connection was lost (${err.message}); the next query reconnects`),
): DbHandle {
  if (databaseUrl.startsWith('postgres://') || databaseUrl.startsWith('postgresql://')) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    // pg re-emits an idle client's error on the pool; unheard, that 'error' event ends the process, so a
    // PostgreSQL restart killed every API process and worker. The pool drops that client by itself.
    pool.on('error', onLostConnection);
    // A client checked out (inside a transaction, between its queries) emits on itself instead, with the
    // same result. Its next query fails and is reported where it is made; the pool drops it on release.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const file = databaseUrl.replace(/^sqlite:/, '');
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  // WAL: readers never wait for the writer. One connection is the one writer path; transactions are
  // short (queries only, no storage or engine work inside them). Commits fsync (FULL) except the
  // writes of softWrite below.
  const wal = sqlite.pragma('journal_mode = WAL', { simple: true }) === 'wal';
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: reusingStatements(sqlite) }) });
  const walSync = wal ? new WalSync(`${file}-wal`) : null;
  if (walSync) walSyncs.set(db, walSync);
  return {
    db,
    dialect: 'sqlite',
    close: async () => {
      await db.destroy();
      await walSync?.close();
    },
  };
}

/**
 * Writes whose loss in a power cut is harmless — lease heartbeats and progress (a restart re-queues
 * running jobs anyway), session last-seen touches — commit without an fsync on SQLite
 * (`synchronous = NORMAL` for their statements only; the next FULL commit makes them durable too).
 * better-sqlite3 runs on the event loop, so an fsync there (4 ms median, 36 ms p99 on the
 * development VM) would stall every request, status polls included, once a second per running job.
 * PostgreSQL: `work` runs as is.
 */
export async function softWrite<T>(db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return work(db);
  return db.connection().execute(async (conn) => {
    await sql`pragma synchronous = NORMAL`.execute(conn);
    try {
      return await work(conn);
    } finally {
      await sql`pragma synchronous = FULL`.execute(conn);
    }
  });
}

const walSyncs = new WeakMap<Db, WalSync>();

/**
 * A write the caller must not lose in a power cut (a submitted job's row), made durable without
 * stalling the event loop: on SQLite in WAL mode `work` commits with `synchronous = NORMAL` (no fsync
 * on the event loop, where better-sqlite3 runs) and the WAL file is then fsynced on the thread pool
 * (WalSync) before this resolves: when it resolves the write is as durable as a FULL commit, and
 * meanwhile the server went on answering. Elsewhere (PostgreSQL, an in-memory or non-WAL SQLite)
 * `work` runs as is.
 */
export async function durableWrite<T>(db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  const walSync = walSyncs.get(db);
  if (!walSync) return work(db);
  const result = await softWrite(db, work);
  await walSync.sync();
  return result;
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  // Unordered: branches developed in parallel add migrations whose names may sort before applied ones.
  const migrator = new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
