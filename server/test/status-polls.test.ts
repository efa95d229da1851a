import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { softWrite } from '../src/db/database.ts';
import { storedReplyKey } from '../src/fea/status-replies.ts';
import type { JobRow } from '../src/jobs/job-service.ts';
import { claimedJob, signedInUser } from './support/compute.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

// Issue 20, polls: GET /api/fea/status/{id} from the status cache with ETags, sessions cached briefly
// with revocation honoured, completed replies pre-serialised and compressed. No queue runs here: the
// test plays the worker through JobService (claim, heartbeat with progress, finish), as runClaimedJob does.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WELCOME_GRANT_TOKENS: '0' }, { startQueue: false });
});
afterAll(async () => t.close());

const poll = (jobId: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/api/fea/status/${jobId}`, headers });

/** Counts every query builder the app's database handle starts (sessions, users, jobs all use it). */
function countQueries() {
  const db = t.ctx.db;
  const spies = (['selectFrom', 'updateTable', 'insertInto', 'deleteFrom'] as const).map((m) =>
    vi.spyOn(db, m),
  );
  return {
    get count() {
      return spies.reduce((n, s) => n + s.mock.calls.length, 0);
    },
    restore: () => {
      for (const s of spies) s.mockRestore();
    },
  };
}

describe('a running job’s status', () => {
  it('carries an ETag and Cache-Control: no-cache; an unchanged status is a 304', async () => {
    const { cookie, job } = await claimedJob(t);
    const first = await poll(job.id, { cookie });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ job_id: job.id, status: 'running', progress: 0, message: 'Starting' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toContain('no-cache');

    const again = await poll(job.id, { cookie, 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
  });

  it('costs no database query in the steady state', async () => {
    const { cookie, job } = await claimedJob(t);
    t.ctx.jobs.statusCache.invalidate(job.id);
    const first = countQueries();
    try {
      await poll(job.id, { cookie }); // the first poll reads the session, the user and the job
      expect(first.count).toBe(3);
    } finally {
      first.restore();
    }
    const queries = countQueries();
    try {
      for (let i = 0; i < 20; i++) expect((await poll(job.id, { cookie })).statusCode).toBe(200);
      expect(queries.count).toBe(0);
    } finally {
      queries.restore();
    }
  });

  it('reads the row once for polls that miss at once, and again after a change', async () => {
    const { cookie, job } = await claimedJob(t);
    await poll(job.id, { cookie }); // session and user cached
    t.ctx.jobs.statusCache.invalidate(job.id);
    const get = vi.spyOn(t.ctx.jobs, 'get');
    try {
      const replies = await Promise.all(Array.from({ length: 20 }, () => poll(job.id, { cookie })));
      expect(replies.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
      expect(get).toHaveBeenCalledTimes(1);
      // A change heard of while a read is in flight: later polls do not join that (maybe older) read.
      const jobs = t.ctx.jobs;
      jobs.statusCache.invalidate(job.id);
      const reads = [jobs.readStatus(job.id), jobs.readStatus(job.id)]; // one read, shared
      jobs.statusCache.invalidate(job.id);
      reads.push(jobs.readStatus(job.id)); // a new one
      await Promise.all(reads);
      expect(get).toHaveBeenCalledTimes(3);
    } finally {
      get.mockRestore();
    }
  });

  it('shows each progress update at once: the cache is fed by the job’s own heartbeat', async () => {
    const { cookie, job } = await claimedJob(t, 'w-progress');
    const before = await poll(job.id, { cookie });
    const etag = before.headers.etag as string;
    await t.ctx.jobs.renewLease(job, 'w-progress', 60, { percent: 42, message: 'Solving' });
    const after = await poll(job.id, { cookie, 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ status: 'running', progress: 42, message: 'Solving' });
    expect(after.headers.etag).not.toBe(etag);
    // A cancel request from the user is seen at once too.
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/fea/cancel/${job.id}`,
      headers: { cookie },
    });
    expect(cancel.json().status).toBe('cancelling');
    expect((await poll(job.id, { cookie })).json()).toMatchObject({
      status: 'running',
      message: 'Cancelling',
    });
  });

  it('shows the finished state as soon as the outcome is recorded', async () => {
    const { cookie, job } = await claimedJob(t, 'w-fail');
    expect((await poll(job.id, { cookie })).json().status).toBe('running');
    const t0 = Date.now();
    await t.ctx.jobs.finish(
      job,
      'w-fail',
      { status: 'failed', code: 'engine_error', message: 'The solver diverged' },
      { startedAt: t0 - 1000, finishedAt: t0 },
    );
    expect((await poll(job.id, { cookie })).json()).toEqual({
      job_id: job.id,
      status: 'failed',
      progress: 0,
      message: 'The solver diverged',
      error: 'The solver diverged',
    });
  });
});

describe('sessions on the poll route', () => {
  it('refuses a logged-out session immediately, though its row was cached', async () => {
    const { cookie, job } = await claimedJob(t);
    expect((await poll(job.id, { cookie })).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect((await poll(job.id, { cookie })).statusCode).toBe(404);
  });

  it('refuses every session of a user whose sessions are revoked (role change), immediately', async () => {
    const { userId, cookie, job } = await claimedJob(t);
    expect((await poll(job.id, { cookie })).statusCode).toBe(200);
    await t.ctx.sessions.destroyAllForUser(userId);
    expect((await poll(job.id, { cookie })).statusCode).toBe(404);
  });

  it('keeps other routes on the database: a row deleted behind the service’s back ends the session there', async () => {
    const { userId, cookie, job } = await claimedJob(t);
    expect((await poll(job.id, { cookie })).statusCode).toBe(200);
    await t.ctx.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
    const check = await t.app.inject({ method: 'GET', url: '/api/auth/check', headers: { cookie } });
    expect(check.json().authenticated).toBe(false);
  });
});

describe('object-level authorization', () => {
  it('answers 404 for someone else’s job, cached or not, and for a caller without a session', async () => {
    const owner = await claimedJob(t);
    const other = await signedInUser(t);
    expect((await poll(owner.job.id, { cookie: other.cookie })).statusCode).toBe(404);
    expect((await poll(owner.job.id, { cookie: owner.cookie })).statusCode).toBe(200); // now cached
    const stranger = await poll(owner.job.id, { cookie: other.cookie });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.headers.etag).toBeUndefined();
    expect((await poll(owner.job.id)).statusCode).toBe(404);
    // A guest session does not see a signed-in user's job either.
    const guest = await t.app.inject({ method: 'GET', url: `/api/fea/status/${owner.job.id}` });
    expect(guest.statusCode).toBe(404);
  });
});

describe('a completed job’s status', () => {
  const results = {
    solver_info: { analysis: 'electrostatic', elements: 6, matrix_size: 8 },
    vertices: [
      [0, 0, 0],
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1e-7],
    ],
    potential: [0, 0.25, 0.5, 1 / 3],
    field_magnitudes: { electric_field: [1e-12, 2.5, 3.75e8, 0.1] },
    note: 'ünïcode ✓',
  };

  async function completedJob() {
    const { cookie, job } = await claimedJob(t, 'w-done');
    const files = t.ctx.jobs.files;
    // The engine's results.json (Python writes spaces and its own number forms: parsed, they are equal).
    const text = JSON.stringify(results, null, 1).replace('1e-7', '1e-07');
    await files.store.put(files.resultKey(job.id, 'results.json'), Buffer.from(text));
    const t0 = Date.now();
    const recorded = await t.ctx.jobs.finish(
      job,
      'w-done',
      { status: 'completed', files: [{ name: 'results.json', bytes: text.length }] },
      { startedAt: t0 - 2000, finishedAt: t0 },
    );
    expect(recorded).toBe(true);
    return { cookie, job };
  }

  /** The reply as the status route built it before issue 20: the row's fields, then the parsed results. */
  async function previousReply(job: JobRow): Promise<string> {
    const row = (await t.ctx.jobs.get(job.id)) as JobRow;
    return JSON.stringify({
      job_id: row.id,
      status: row.status,
      progress: row.progress,
      message: row.message ?? undefined,
      results: JSON.parse(
        ((await t.ctx.jobs.files.store.get(row.result_location as string)) as Buffer).toString('utf8'),
      ),
    });
  }

  it('serves the same JSON as before, byte for byte, in every encoding', async () => {
    const { cookie, job } = await completedJob();
    const expected = await previousReply(job);

    const plain = await poll(job.id, { cookie });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.body).toBe(expected);
    expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
    expect(plain.json().results).toEqual(results);

    const gz = await poll(job.id, { cookie, 'accept-encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(expected);

    const br = await poll(job.id, { cookie, 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(expected);

    expect(gz.headers.etag).toBe(plain.headers.etag);
    expect(br.headers.etag).toBe(plain.headers.etag);
    const unchanged = await poll(job.id, { cookie, 'if-none-match': plain.headers.etag as string });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
  });

  it('never reads, decrypts or parses the results again once the reply is built', async () => {
    const { cookie, job } = await completedJob();
    await poll(job.id, { cookie, 'accept-encoding': 'br' });
    const build = vi.spyOn(t.ctx.jobs.files.store, 'onWorker');
    const get = vi.spyOn(t.ctx.jobs.files.store, 'get');
    const parse = vi.spyOn(JSON, 'parse');
    try {
      for (let i = 0; i < 10; i++)
        expect((await poll(job.id, { cookie, 'accept-encoding': 'gzip, br' })).statusCode).toBe(200);
      expect(build).not.toHaveBeenCalled();
      expect(get).not.toHaveBeenCalled();
      expect(parse).not.toHaveBeenCalled();
    } finally {
      build.mockRestore();
      get.mockRestore();
      parse.mockRestore();
    }
  });

  it('stores the built reply beside the results: a restarted server serves it without parsing the results', async () => {
    const { cookie, job } = await completedJob();
    const expected = await previousReply(job);
    await poll(job.id, { cookie });
    expect(await t.ctx.jobs.files.store.get(storedReplyKey(job.id))).not.toBeNull();

    const restarted = await createTestApp(
      { DATA_DIR: t.dataDir, DATABASE_URL: t.ctx.config.databaseUrl, WELCOME_GRANT_TOKENS: '0' },
      { startQueue: false },
    );
    const build = vi.spyOn(restarted.ctx.jobs.files.store, 'onWorker');
    try {
      const res = await restarted.app.inject({
        method: 'GET',
        url: `/api/fea/status/${job.id}`,
        headers: { cookie, 'accept-encoding': 'gzip' },
      });
      expect(res.statusCode).toBe(200);
      expect(gunzipSync(res.rawPayload).toString('utf8')).toBe(expected);
      expect(build).not.toHaveBeenCalled();
    } finally {
      build.mockRestore();
      await restarted.app.close(); // not restarted.close(): the data directory is t's
    }
  });

  it('keeps the files-deleted message once retention removed the results', async () => {
    const { cookie, job } = await completedJob();
    expect((await poll(job.id, { cookie })).json().results).toEqual(results);
    await t.ctx.jobs.files.removeAll(job.id);
    await t.ctx.jobs.markFilesDeleted(job.id);
    const after = (await poll(job.id, { cookie })).json();
    expect(after.results).toBeUndefined();
    expect(after.message).toMatch(/^The results were deleted 24 h after the job finished/);
  });
});

describe('SQLite writes on the poll path', () => {
  const synchronous = async (db = t.ctx.db) =>
    (await sql<{ synchronous: number }>`pragma synchronous`.execute(db)).rows[0]?.synchronous;

  it('runs in WAL; heartbeats commit without an fsync, every other write keeps FULL', async () => {
    if (t.ctx.dialect !== 'sqlite') return;
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(t.ctx.db);
    expect(mode.rows[0]?.journal_mode).toBe('wal');
    expect(await synchronous()).toBe(2); // FULL
    expect(await softWrite(t.ctx.db, (db) => synchronous(db))).toBe(1); // NORMAL, for soft writes only
    const { job } = await claimedJob(t, 'w-sync');
    await t.ctx.jobs.renewLease(job, 'w-sync', 60, { percent: 7, message: 'Meshing' });
    expect(await synchronous()).toBe(2);
    expect((await t.ctx.jobs.get(job.id))?.progress).toBe(7);
  });
});
