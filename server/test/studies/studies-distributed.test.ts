import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../support/compute.ts';
import { createStudy, voltageStudy, waitForStudy } from '../support/studies.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { registerTestUser } from '../support/users.ts';

// scripts/test.sh runs this with a real PostgreSQL and Redis (scripts/with-postgres.sh, scripts/with-redis.sh).
const redisUrl = process.env.TEST_REDIS_URL;
const pgUrl = process.env.TEST_DATABASE_URL;
const SERVER_DIR = resolve(import.meta.dirname, '..', '..');

describe.skipIf(!redisUrl || !pgUrl)('a study on BullMQ with two `fieldline worker` processes', () => {
  let t: TestApp;
  let env: Record<string, string>;
  const workers: ChildProcess[] = [];
  const logDir = mkdtempSync(join(tmpdir(), 'fieldline-study-workers-'));

  function startWorker(): ChildProcess {
    const fd = openSync(join(logDir, `worker-${workers.length}.log`), 'a');
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'worker'], {
      cwd: SERVER_DIR,
      env: { ...process.env, ...env },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    workers.push(proc);
    return proc;
  }

  beforeAll(async () => {
    const shared = { ENGINE_TEST_HOOKS: '1', JOB_LEASE_SECONDS: '3', REDIS_URL: redisUrl ?? '' };
    t = await createTestApp(shared);
    env = {
      ...shared,
      DATA_DIR: t.dataDir,
      DATABASE_URL: t.ctx.config.databaseUrl,
      JOB_SLOTS: '1',
      SHUTDOWN_GRACE_SECONDS: '1',
      LOG_LEVEL: 'info',
    };
    startWorker();
    startWorker();
    await pollUntil(async () => (await t.ctx.compute.registry.live('bullmq')).workers === 2, 60_000, 200);
  });

  afterAll(async () => {
    const alive = workers.filter((w) => w.exitCode === null && w.signalCode === null);
    for (const w of alive) w.kill('SIGTERM');
    await Promise.all(alive.map((w) => new Promise((r) => w.once('exit', r))));
    await t?.close();
  });

  it('runs 16 points on both workers, each once; a SIGKILLed worker’s point is run again and charged once', async () => {
    const user = await registerTestUser(t.app);
    const res = await createStudy(t.app, user.cookie, voltageStudy(16), 1);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().study_id as string;
    // Kill the worker of a running point in the middle of its run, and start a replacement.
    const victim = await pollUntil(
      async () => {
        const row = await t.ctx.db
          .selectFrom('study_points as p')
          .innerJoin('jobs as j', 'j.id', 'p.job_id')
          .select(['j.id', 'j.worker_id', 'j.progress'])
          .where('p.study_id', '=', id)
          .where('p.idx', '>=', 2)
          .where('j.status', '=', 'running')
          .executeTakeFirst();
        return row && row.progress > 0 ? row : null;
      },
      60_000,
      50,
    );
    const pid = Number(victim.worker_id?.split(':').pop());
    const killed = workers.find((w) => w.pid === pid);
    expect(killed, `worker ${victim.worker_id}`).toBeDefined();
    killed?.kill('SIGKILL');
    startWorker();

    const done = await waitForStudy(t.app, user.cookie, id, 180_000);
    expect(done.status).toBe('completed');
    expect(done.points.map((p) => p.status)).toEqual(Array(16).fill('completed'));
    const jobIds = done.points.map((p) => p.job_id as string);
    expect(new Set(jobIds).size).toBe(16);
    const runs = await t.ctx.db.selectFrom('job_runs').selectAll().where('job_id', 'in', jobIds).execute();
    for (const jobId of jobIds)
      expect(
        runs.filter((r) => r.job_id === jobId && r.outcome === 'completed'),
        jobId,
      ).toHaveLength(1);
    // The killed worker's point: superseded on it, completed on another worker, charged for that run only.
    const victimRuns = runs.filter((r) => r.job_id === victim.id).sort((a, b) => a.attempt - b.attempt);
    expect(victimRuns.map((r) => r.outcome)).toEqual(['superseded', 'completed']);
    expect(victimRuns[1]?.worker_id).not.toBe(victim.worker_id);
    const victimJob = await t.ctx.jobs.get(victim.id);
    expect(victimJob?.compute_seconds).toBeCloseTo(victimRuns[1]?.seconds ?? -1, 6);
    const ledger = await t.ctx.db
      .selectFrom('usage_ledger')
      .select('source_id')
      .where('source', '=', 'job')
      .where('source_id', 'in', jobIds)
      .execute();
    expect(ledger.map((l) => l.source_id).sort()).toEqual([...jobIds].sort());
    // Spread over both original workers (and the replacement).
    const byWorker = new Set(runs.filter((r) => r.outcome === 'completed').map((r) => r.worker_id));
    expect(byWorker.size).toBeGreaterThanOrEqual(2);
    console.log(
      `16-point study on BullMQ: completed runs per worker ${JSON.stringify(
        Object.fromEntries(
          [...byWorker].map((w) => [
            w,
            runs.filter((r) => r.worker_id === w && r.outcome === 'completed').length,
          ]),
        ),
      )}`,
    );
  }, 240_000);
});
