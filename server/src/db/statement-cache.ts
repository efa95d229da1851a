import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct statements kept prepared; the server's queries are a few hundred texts at most. */
const MAX_STATEMENTS = 500;
/**
 * Only these are kept: their compiled program does all its work when run. A PRAGMA is different — SQLite
 * applies `pragma synchronous = NORMAL` (and reads `pragma synchronous`) while preparing it, so a kept one
 * would silently stop switching softWrite's commits (database.ts): those are prepared every time.
 */
const REUSABLE = /^\s*(select|insert|update|delete|with|begin|commit|rollback|savepoint|release)\b/i;

/**
 * The SQLite connection as Kysely's dialect sees it, with each query's prepared statement kept and reused.
 * Kysely's driver prepares every query it runs (`db.prepare(sql)`), and preparing costs as much as running
 * a small query: a study point makes ≈ 40 queries of ≈ 30 distinct texts (bench/studies). better-sqlite3
 * statements are reusable; one still being iterated (a streamed select) is `busy`, and then a fresh one is
 * prepared for the other caller.
 */
export function reusingStatements(sqlite: SqliteDatabase.Database): KyselySqliteDatabase {
  const kept = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => {
      kept.clear();
      sqlite.close();
    },
    prepare: (sql: string): SqliteStatement => {
      const statement = kept.get(sql);
      if (statement && !statement.busy) {
        // most recently used last, so the oldest goes first when the map is full
        kept.delete(sql);
        kept.set(sql, statement);
        return statement as unknown as SqliteStatement;
      }
      const fresh = sqlite.prepare(sql);
      if (!statement && REUSABLE.test(sql)) {
        if (kept.size >= MAX_STATEMENTS) kept.delete(kept.keys().next().value as string);
        kept.set(sql, fresh);
      }
      return fresh as unknown as SqliteStatement;
    },
  };
}
