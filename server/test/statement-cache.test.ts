import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrateToLatest, openDatabase, softWrite } from '../src/db/database.ts';
import { reusingStatements } from '../src/db/statement-cache.ts';

// Kysely's SQLite driver prepares every query it runs; preparing cost as much as running the small queries a
// study point makes (≈ 40 of them, bench/studies). Statements are now kept and reused — but never a PRAGMA,
// which SQLite applies while preparing it (softWrite's `pragma synchronous` switch would silently stop).
describe('prepared statements on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fieldline-statements-'));
  const handle = openDatabase(`sqlite:${join(dir, 'db.sqlite')}`);
  beforeAll(async () => {
    await migrateToLatest(handle.db);
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prepares a repeated query once', async () => {
    const prepare = vi.spyOn(SqliteDatabase.prototype, 'prepare');
    for (let i = 0; i < 20; i++)
      await handle.db.selectFrom('jobs').select('id').where('id', '=', `job-${i}`).execute();
    const texts = prepare.mock.calls.map((c) => c[0]);
    expect(texts.filter((t) => t.startsWith('select "id" from "jobs"'))).toHaveLength(1);
  });

  it('still switches the synchronous pragma on every softWrite', async () => {
    const level = async () =>
      (await sql<{ synchronous: number }>`pragma synchronous`.execute(handle.db)).rows[0]?.synchronous;
    for (let i = 0; i < 3; i++) {
      const inside = await softWrite(
        handle.db,
        async (db) =>
          (await sql<{ synchronous: number }>`pragma synchronous`.execute(db)).rows[0]?.synchronous,
      );
      expect(inside).toBe(1); // NORMAL inside
      expect(await level()).toBe(2); // FULL again after
    }
  });

  it('prepares a PRAGMA every time (SQLite applies it while preparing it)', () => {
    const sqlite = new SqliteDatabase(join(dir, 'pragma.sqlite'));
    const db = reusingStatements(sqlite);
    try {
      expect(db.prepare('pragma synchronous = NORMAL')).not.toBe(db.prepare('pragma synchronous = NORMAL'));
      db.prepare('pragma synchronous = FULL').run([]);
      db.prepare('pragma synchronous = NORMAL').run([]);
      expect(sqlite.pragma('synchronous', { simple: true })).toBe(1);
      db.prepare('pragma synchronous = FULL').run([]);
      expect(sqlite.pragma('synchronous', { simple: true })).toBe(2);
    } finally {
      db.close();
    }
  });

  it('gives a second caller a fresh statement while the kept one is being iterated', () => {
    const sqlite = new SqliteDatabase(':memory:');
    const db = reusingStatements(sqlite);
    try {
      sqlite.exec('create table t (v integer); insert into t values (1), (2), (3)');
      const text = 'select v from t order by v';
      const first = db.prepare(text);
      expect(db.prepare(text)).toBe(first);
      const seen: number[] = [];
      for (const row of first.iterate([]) as Iterable<{ v: number }>) {
        const other = db.prepare(text);
        expect(other).not.toBe(first);
        seen.push(row.v, (other.all([]) as { v: number }[]).length);
      }
      expect(seen).toEqual([1, 3, 2, 3, 3, 3]);
      expect(db.prepare(text)).toBe(first); // not busy any more
    } finally {
      db.close();
    }
  });
});
