import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectHoursCharge, pollUntil, submit, tinyJob, writeTestPlans } from '../support/compute.ts';
import {
  assertExactlyOnceAndBilled,
  assertPriorityOvertook,
  scenarioUsers,
  submitTwenty,
  waitAllFinished,
} from '../support/queue-scenario.ts';
import { createTestApp, type TestApp, waitForJob } from '../support/test-app.ts';

// scripts/test.sh runs this with a real PostgreSQL and Redis (scripts/with-postgres.sh, scripts/with-redis.sh).
const redisUrl = process.env.TEST_REDIS_URL;
const pgUrl = process.env.TEST_DATABASE_URL;
const SERVER_DIR = resolve(import.meta.dirname, '..', '..');

describe.skipIf(!redisUrl || !pgUrl)('BullMQ: two `fieldline worker` processes on one queue', () => {
  let t: TestApp;
  let env: Record<string, string>;
  const workers: { proc: ChildProcess; log: string }[] = [];
  const logDir = mkdtempSync(join(tmpdir(), 'fieldline-workers-'));

  function startWorker(): ChildProcess {
    const log = join(logDir, `worker-${workers.length}.log`);
    const fd = openSync(log, 'a');
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'worker'], {
      cwd: SERVER_DIR,
      env: { ...process.env, ...env },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    workers.push({ proc, log });
    return proc;
  }

  async function liveWorkers(): Promise<number> {
    return (await t.ctx.compute.registry.live('bullmq')).workers;
  }

  beforeAll(async () => {
    const plans = writeTestPlans(mkdtempSync(join(tmpdir(), 'fieldline-plans-')));
    const shared = {
      WELCOME_GRANT_TOKENS: '0',
      ENGINE_TEST_HOOKS: '1',
      PLANS_FILE: plans,
      JOB_LEASE_SECONDS: '3',
      REDIS_URL: redisUrl ?? '',
    };
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
    await pollUntil(async () => (await liveWorkers()) === 2, 60_000, 200);
  });

  afterAll(async () => {
    for (const w of workers)
      if (w.proc.exitCode === null && w.proc.signalCode === null) w.proc.kill('SIGTERM');
    await Promise.all(
      workers.map((w) =>
        w.proc.exitCode !== null || w.proc.signalCode !== null
          ? Promise.resolve()
          : new Promise((r) => w.proc.once('exit', r)),
      ),
    );
    await t?.close();
  });

  it('runs 20 jobs from 3 users exactly once, priority first, and finishes a SIGKILLed worker’s job on the other', async () => {
    const users = await scenarioUsers(t);
    const [alice] = users;
    // The victim job runs for several seconds; its worker is killed in the middle.
    const victim = (await submit(t.app, alice?.cookie ?? '', tinyJob(), 6)).json().job_id as string;
    const running = await pollUntil(async () => {
      const j = await t.ctx.jobs.get(victim);
      return j?.status === 'running' && j.progress > 0 ? j : null;
    }, 60_000);
    const { ids, waitingStandard } = await submitTwenty(t.app, t.ctx, users, 0.2);
    const victimPid = Number(running.worker_id?.split(':').pop());
    const victimWorker = workers.find((w) => w.proc.pid === victimPid);
    expect(victimWorker, `worker ${running.worker_id}`).toBeDefined();
    victimWorker?.proc.kill('SIGKILL');
    startWorker(); // a replacement, so two workers serve the queue again

    const all = [victim, ...ids.map((x) => x.id)];
    await waitAllFinished(t.ctx, all, 150_000);
    const { runs } = await assertExactlyOnceAndBilled(t.ctx, all, users);

    const victimRuns = runs.filter((r) => r.job_id === victim).sort((a, b) => a.attempt - b.attempt);
    expect(victimRuns.map((r) => r.outcome)).toEqual(['superseded', 'completed']);
    expect(victimRuns[0]?.worker_id).toBe(running.worker_id);
    expect(victimRuns[1]?.worker_id).not.toBe(running.worker_id);
    const victimJob = await t.ctx.jobs.get(victim);
    // Only the attempt that completed is charged: time lost with the killed worker is the platform's.
    expect(victimJob?.compute_seconds).toBeCloseTo(victimRuns[1]?.seconds ?? -1, 6);
    expect(victimJob?.attempts).toBe(2);

    const workerIds = new Set(runs.filter((r) => r.outcome === 'completed').map((r) => r.worker_id));
    expect(workerIds.size).toBeGreaterThanOrEqual(2); // the work really was spread over processes
    const priority = ids.filter((x) => x.user.plan === 'pro').map((x) => x.id);
    await assertPriorityOvertook(t.ctx, priority, waitingStandard, 2); // two workers, one slot each

    // A duplicate delivery of a finished job is acknowledged without running or billing again.
    const before = { runs: runs.length, charges: await countCharges(t) };
    await t.ctx.queue.enqueue(victim, 'standard');
    await pollUntil(async () => (await t.ctx.queue.backendState(victim)) === null, 20_000, 200);
    const after = await t.ctx.db.selectFrom('job_runs').select('id').where('job_id', 'in', all).execute();
    expect(after.length).toBe(before.runs);
    expect(await countCharges(t)).toBe(before.charges);
    const logs = workers.map((w) => readFileSync(w.log, 'utf8')).join('\n');
    expect(logs).toMatch(/duplicate or stale delivery acknowledged without running/);
  });

  it('cancels a running job on a worker machine cooperatively, charging the time used', async () => {
    const [u] = await scenarioUsers(t);
    const id = (await submit(t.app, u?.cookie ?? '', tinyJob(), 30)).json().job_id as string;
    await pollUntil(async () => (await t.ctx.jobs.get(id))?.progress, 60_000);
    const fedBefore = t.ctx.statusFeed?.counters.applied ?? 0;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/fea/cancel/${id}`,
      headers: { cookie: u?.cookie ?? '' },
    });
    expect(res.json().status).toBe('cancelling');
    const { body } = await waitForJob(t.app, id, u?.cookie ?? '', 20_000);
    expect(body.status).toBe('cancelled');
    // The worker's outcome reached this API process's polls through the status feed (LISTEN/NOTIFY).
    expect(t.ctx.statusFeed?.counters.applied ?? 0).toBeGreaterThan(fedBefore);
    const job = await t.ctx.jobs.get(id);
    expectHoursCharge(job?.cost_tokens, job?.compute_seconds ?? 0);
    expect(job?.compute_seconds).toBeLessThan(20);

    // The SIGKILLed worker of the first test is counted until its heartbeat ages out (20 s).
    const health = await pollUntil(
      async () => {
        const h = (await t.app.inject({ method: 'GET', url: '/api/fea/health' })).json();
        return h.queue?.workers === 2 ? h : null;
      },
      30_000,
      250,
    );
    expect(health.queue).toMatchObject({ backend: 'bullmq', workers: 2, slots: 2 });
  });

  it('a worker stopped with SIGTERM re-queues its running job (not cancelled) for another worker', async () => {
    const [u] = await scenarioUsers(t);
    const cookie = u?.cookie ?? '';
    const id = (await submit(t.app, cookie, tinyJob(), 5)).json().job_id as string;
    const running = await pollUntil(async () => {
      const j = await t.ctx.jobs.get(id);
      return j?.status === 'running' && j.progress > 0 ? j : null;
    }, 60_000);
    const holder = workers.find((w) => w.proc.pid === Number(running.worker_id?.split(':').pop()));
    expect(holder).toBeDefined();
    const exited = new Promise((r) => holder?.proc.once('exit', r));
    holder?.proc.kill('SIGTERM'); // grace 1 s < the job's 5 s
    await exited;
    expect(holder?.proc.exitCode).toBe(0);
    startWorker();
    const { body } = await waitForJob(t.app, id, cookie, 90_000);
    expect(body.status, body.error).toBe('completed');
    const runs = await t.ctx.db
      .selectFrom('job_runs')
      .selectAll()
      .where('job_id', '=', id)
      .orderBy('started_at')
      .execute();
    expect(runs.map((r) => r.outcome)).toEqual(['requeued', 'completed']);
    expect(runs[1]?.worker_id).not.toBe(running.worker_id);
    expect((await t.ctx.jobs.get(id))?.attempts).toBe(1); // a shutdown is not the job's fault
  });
});

async function countCharges(t: TestApp): Promise<number> {
  const row = await t.ctx.db
    .selectFrom('usage_ledger')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('entry_type', '=', 'job_charge')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
