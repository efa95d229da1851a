import { brotliDecompressSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../src/db/database.ts';
import { claimedJob, pollUntil } from './support/compute.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

// Issue 20: two API processes on one PostgreSQL (scripts/test.sh's PostgreSQL step). A job's updates
// written through one (as its worker does: claim, heartbeat with progress, cancel, finish) reach the
// other's status cache through LISTEN/NOTIFY, so the other's status polls read no row; a cut listener
// connection reconnects and re-reads what it may have missed. No queue runs: the test plays the worker.
const pgUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!pgUrl)('the status feed between two API processes (PostgreSQL LISTEN/NOTIFY)', () => {
  let a: TestApp; // runs the jobs
  let b: TestApp; // only answers polls
  beforeAll(async () => {
    a = await createTestApp({ WELCOME_GRANT_TOKENS: '0' }, { startQueue: false });
    b = await createTestApp(
      { DATA_DIR: a.dataDir, DATABASE_URL: a.ctx.config.databaseUrl, WELCOME_GRANT_TOKENS: '0' },
      { startQueue: false },
    );
    // The queries counted here are the polls'. An idle study scheduler makes none for a job that is no study
    // point (study-scheduler.test.ts), but looks for unfinished studies every 15 s, which a slow run could
    // count: this file is about the status feed, so it runs without one.
    await a.ctx.studyScheduler?.stop();
    await b.ctx.studyScheduler?.stop();
  });
  afterAll(async () => {
    await b?.app.close(); // not b.close(): the data directory is a's
    await a?.close();
  });

  const poll = (t: TestApp, jobId: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/api/fea/status/${jobId}`, headers });

  /** Counts the query builders b's database handle starts, and its job-row reads. */
  function countQueries(db: Db) {
    const spies = [
      ...(['selectFrom', 'updateTable', 'insertInto', 'deleteFrom'] as const).map((m) => vi.spyOn(db, m)),
      vi.spyOn(b.ctx.jobs, 'get'),
    ];
    return {
      get count() {
        return spies.reduce((n, s) => n + s.mock.calls.length, 0);
      },
      restore: () => {
        for (const s of spies) s.mockRestore();
      },
    };
  }

  /** b's polls until `match` holds (each poll counted by the caller's spies). */
  const pollB = (jobId: string, cookie: string, match: (body: Record<string, unknown>) => boolean) =>
    pollUntil(
      async () => {
        const body = (await poll(b, jobId, { cookie })).json();
        return match(body) ? body : null;
      },
      5_000,
      20,
    );

  it('shows progress written through one process in the other’s polls, with no database read', async () => {
    const { cookie, job } = await claimedJob(a, 'w-progress');
    expect((await poll(b, job.id, { cookie })).json()).toMatchObject({ status: 'running', progress: 0 });
    const queries = countQueries(b.ctx.db);
    try {
      await a.ctx.jobs.renewLease(job, 'w-progress', 60, { percent: 42, message: 'Solving' });
      const seen = await pollB(job.id, cookie, (r) => r.progress === 42);
      expect(seen).toEqual({ job_id: job.id, status: 'running', progress: 42, message: 'Solving' });
      // Past the 1 s a snapshot read without a feed lives: still served from the fed cache.
      const messages = b.ctx.statusFeed?.counters.messages ?? 0;
      await a.ctx.jobs.renewLease(job, 'w-progress', 60); // a lease-only heartbeat sends nothing
      await new Promise((r) => setTimeout(r, 1_200));
      expect((await poll(b, job.id, { cookie })).json().progress).toBe(42);
      expect(b.ctx.statusFeed?.counters.messages).toBe(messages);
      expect(queries.count).toBe(0);
    } finally {
      queries.restore();
    }
  });

  it('shows a cancel requested through one process and the cancelled outcome in the other’s polls', async () => {
    const { cookie, job } = await claimedJob(a, 'w-cancel');
    expect((await poll(b, job.id, { cookie })).statusCode).toBe(200);
    const queries = countQueries(b.ctx.db);
    try {
      const cancel = await a.app.inject({
        method: 'POST',
        url: `/api/fea/cancel/${job.id}`,
        headers: { cookie },
      });
      expect(cancel.json().status).toBe('cancelling');
      await pollB(job.id, cookie, (r) => r.message === 'Cancelling');
      const t0 = Date.now();
      await a.ctx.jobs.finish(
        job,
        'w-cancel',
        { status: 'cancelled', message: 'Job cancelled' },
        { startedAt: t0 - 1000, finishedAt: t0 },
      );
      const seen = await pollB(job.id, cookie, (r) => r.status === 'cancelled');
      expect(seen).toEqual({
        job_id: job.id,
        status: 'cancelled',
        progress: 0,
        message: 'Job cancelled',
        error: 'Job cancelled',
      });
      expect(queries.count).toBe(0);
    } finally {
      queries.restore();
    }
  });

  it('serves a job completed elsewhere from the stored, compressed reply, read from no row', async () => {
    const { cookie, job } = await claimedJob(a, 'w-done');
    expect((await poll(b, job.id, { cookie })).json().status).toBe('running');
    const results = { solver_info: { analysis: 'electrostatic' }, potential: [0, 0.5, 1] };
    const files = a.ctx.jobs.files;
    await files.store.put(files.resultKey(job.id, 'results.json'), Buffer.from(JSON.stringify(results)));
    const queries = countQueries(b.ctx.db);
    try {
      const t0 = Date.now();
      await a.ctx.jobs.finish(
        job,
        'w-done',
        { status: 'completed', files: [{ name: 'results.json', bytes: 10 }] },
        { startedAt: t0 - 1000, finishedAt: t0 },
      );
      await pollUntil(async () => b.ctx.jobs.statusCache.get(job.id)?.snap.status === 'completed', 5_000, 20);
      const res = await poll(b, job.id, { cookie, 'accept-encoding': 'gzip, deflate, br' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      const fromB = brotliDecompressSync(res.rawPayload).toString('utf8');
      expect(JSON.parse(fromB)).toEqual({
        job_id: job.id,
        status: 'completed',
        progress: 100,
        message: 'Completed',
        results,
      });
      const fromA = await poll(a, job.id, { cookie });
      expect(fromA.body).toBe(fromB);
      expect(fromA.headers.etag).toBe(res.headers.etag);
      expect(queries.count).toBe(0);
      // The reply is built once and then only served: no results read, no storage read per poll.
      const build = vi.spyOn(b.ctx.jobs.files.store, 'onWorker');
      const get = vi.spyOn(b.ctx.jobs.files.store, 'get');
      try {
        for (let i = 0; i < 5; i++)
          expect((await poll(b, job.id, { cookie, 'accept-encoding': 'br' })).statusCode).toBe(200);
        expect(build).not.toHaveBeenCalled();
        expect(get).not.toHaveBeenCalled();
      } finally {
        build.mockRestore();
        get.mockRestore();
      }
    } finally {
      queries.restore();
    }
  });

  it('recovers from a cut listener connection: reconnects, re-reads what it may have missed, then needs no reads again', async () => {
    const feed = b.ctx.statusFeed;
    if (!feed) throw new Error('no status feed on PostgreSQL');
    const { cookie, job } = await claimedJob(a, 'w-cut');
    expect((await poll(b, job.id, { cookie })).json().progress).toBe(0);
    const connects = feed.counters.connects;
    const pid = feed.backendPid;
    expect(pid).not.toBeNull();
    await sql`select pg_terminate_backend(${pid})`.execute(a.ctx.db);
    // Written while b's listener is down: b cannot hear of it.
    await a.ctx.jobs.renewLease(job, 'w-cut', 60, { percent: 77, message: 'Solving' });
    await pollUntil(async () => feed.counters.connects > connects, 10_000, 20);
    expect(feed.backendPid).not.toBe(pid);
    // Listening again: every snapshot this process did not write itself was dropped, so the poll reads the row.
    expect(b.ctx.jobs.statusCache.get(job.id)).toBeNull();
    const reread = vi.spyOn(b.ctx.jobs, 'get');
    try {
      expect((await poll(b, job.id, { cookie })).json().progress).toBe(77);
      expect(reread).toHaveBeenCalledTimes(1);
    } finally {
      reread.mockRestore();
    }
    const queries = countQueries(b.ctx.db);
    try {
      await a.ctx.jobs.renewLease(job, 'w-cut', 60, { percent: 88, message: 'Solving' });
      await pollB(job.id, cookie, (r) => r.progress === 88);
      expect(queries.count).toBe(0);
    } finally {
      queries.restore();
    }
  });
});
