import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '../src/accounts/rate-limiter.ts';
import { SessionService } from '../src/sessions/session-service.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

// The storage layer of sessions and rate limits, on the real database (SQLite or PostgreSQL), with a
// controllable clock.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { startQueue: false });
});
afterAll(async () => {
  await t.close();
});

function clock(start = Date.parse('2026-01-01T00:00:00Z')) {
  let now = start;
  return { now: () => now, advance: (seconds: number) => (now += seconds * 1000) };
}

describe('session expiry', () => {
  const policy = { idleSeconds: 3600, absoluteSeconds: 8 * 3600 };

  it('expires after the idle limit and deletes the row', async () => {
    const c = clock();
    const sessions = new SessionService(t.ctx.db, 'k'.repeat(64), policy, c.now);
    const { rawId, session } = await sessions.create(null);
    c.advance(3599);
    expect(await sessions.resolve(rawId)).not.toBeNull();
    c.advance(3601);
    expect(await sessions.resolve(rawId)).toBeNull();
    const row = await t.ctx.db
      .selectFrom('sessions')
      .select('id_hash')
      .where('id_hash', '=', session.idHash)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('expires at the absolute limit however active the session is', async () => {
    const c = clock();
    const sessions = new SessionService(t.ctx.db, 'k'.repeat(64), policy, c.now);
    const { rawId } = await sessions.create(null);
    for (let hour = 0; hour < 7; hour++) {
      c.advance(3000);
      expect(await sessions.resolve(rawId)).not.toBeNull();
    }
    c.advance(8 * 3600 - 7 * 3000);
    expect(await sessions.resolve(rawId)).toBeNull();
  });

  it('rotate deletes the previous session and issues a different id', async () => {
    const sessions = new SessionService(t.ctx.db, 'k'.repeat(64));
    const before = await sessions.create(null);
    const after = await sessions.rotate(before.session, 'user-1');
    expect(after.rawId).not.toBe(before.rawId);
    expect(await sessions.resolve(before.rawId)).toBeNull();
    expect((await sessions.resolve(after.rawId))?.userId).toBe('user-1');
  });
});

describe('RateLimiter', () => {
  const limit = { max: 3, windowSeconds: 60 };

  it('allows max hits per window, refuses the next with the time left, and opens again after it', async () => {
    const c = clock();
    const limiter = new RateLimiter(t.ctx.db, c.now);
    const key = `test:window:${Math.random()}`;
    for (let i = 0; i < 3; i++) expect((await limiter.hit(key, limit)).allowed).toBe(true);
    c.advance(20);
    expect(await limiter.hit(key, limit)).toEqual({ allowed: false, retryAfterSeconds: 40 });
    c.advance(40);
    expect((await limiter.hit(key, limit)).allowed).toBe(true);
  });

  it('counts together across limiter instances (several server processes on one database)', async () => {
    const c = clock();
    const a = new RateLimiter(t.ctx.db, c.now);
    const b = new RateLimiter(t.ctx.db, c.now);
    const key = `test:shared:${Math.random()}`;
    await a.hit(key, limit);
    await b.hit(key, limit);
    await a.hit(key, limit);
    expect((await b.hit(key, limit)).allowed).toBe(false);
  });

  it('loses no hit under concurrency (atomic upsert)', async () => {
    const limiter = new RateLimiter(t.ctx.db);
    const key = `test:concurrent:${Math.random()}`;
    const decisions = await Promise.all(
      Array.from({ length: 20 }, () => limiter.hit(key, { max: 5, windowSeconds: 60 })),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    const row = await t.ctx.db
      .selectFrom('rate_limits')
      .select('count')
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(Number(row.count)).toBe(20);
  });

  it('reset forgets a key', async () => {
    const limiter = new RateLimiter(t.ctx.db);
    const key = `test:reset:${Math.random()}`;
    for (let i = 0; i < 4; i++) await limiter.hit(key, limit);
    await limiter.reset(key);
    expect((await limiter.hit(key, limit)).allowed).toBe(true);
  });
});
