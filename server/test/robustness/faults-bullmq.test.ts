import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pollUntil, tinyJob, writeTestPlans } from '../support/compute.ts';
import { PrivatePostgres, PrivateRedis } from '../support/private-services.ts';
import { ServerProcess } from '../support/server-process.ts';
import { DataDirView, engineProcesses, faultCounts } from './fault-ledger.ts';
import { LoadLoop } from './load-loop.ts';

// Runs in the PostgreSQL + Redis step of `npm test` (scripts/test.sh), with a PostgreSQL and a Redis of its
// own (the test stops and restarts them; the shared ones serve the other test files meanwhile).
const enabled = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
const MAX_ATTEMPTS = 3;

/**
 * The distributed path as deployed: two API processes and two `fieldline worker` processes (each with its
 * own WORK_DIR, as on separate machines) on a real PostgreSQL and Redis, under a steady load of submits
 * and status polls. In turn: SIGKILL of an engine process, of a worker (restarted on its WORK_DIR), of an
 * API process, a Redis crash and restart (no persistence: every queue entry is lost), and a PostgreSQL
 * crash and restart. Every job must end exactly once and be charged once, with nothing left behind.
 */
describe.skipIf(!enabled)('faults: BullMQ workers, API processes, Redis and PostgreSQL under SIGKILL', () => {
  let pg: PrivatePostgres | null = null;
  let redis: PrivateRedis | null = null;
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldline-bullfault-'));
  const procs: ServerProcess[] = [];
  let view: DataDirView;
  afterAll(async () => {
    for (const p of procs) await p.stop('SIGKILL');
    await view?.close();
    await redis?.destroy();
    pg?.destroy();
  });

  const t0 = Date.now();
  const step = (what: string) =>
    console.log(`faults (bullmq) +${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);

  it('ends every job exactly once, charges each once, and leaves no files or objects behind', async () => {
    pg = await PrivatePostgres.create();
    redis = await PrivateRedis.create();
    if (!pg || !redis) throw new Error('PostgreSQL or Redis is not installed');
    view = new DataDirView(dataDir, pg.url);
    const env = {
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      COMPUTE_BACKEND: 'bullmq',
      ENGINE_TEST_HOOKS: '1',
      WELCOME_GRANT_TOKENS: '100',
      JOB_MIN_ESTIMATE_SECONDS: '1',
      PLANS_FILE: writeTestPlans(mkdtempSync(join(tmpdir(), 'fieldline-plans-'))),
      JOB_SLOTS: '2',
      JOB_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      JOB_LEASE_SECONDS: '3',
      SHUTDOWN_GRACE_SECONDS: '0',
    };
    const api = ['a', 'b'].map((n) => new ServerProcess(env, dataDir, { name: `api-${n}` }));
    const workers = [0, 1].map(
      (n) =>
        new ServerProcess({ ...env, LOG_LEVEL: 'info', WORK_DIR: join(dataDir, `work-${n}`) }, dataDir, {
          command: 'worker',
          name: `worker-${n}`,
        }),
    );
    procs.push(...api, ...workers);
    await api[0]?.start(); // migrates the database; the others start on it
    await Promise.all([api[1]?.start(), ...workers.map((w) => w.start())]);
    step('2 API processes and 2 workers started');

    const cookies = [
      await api[0]?.register(),
      await api[1]?.register(),
      await api[0]?.register(),
    ] as string[];
    const load = new LoadLoop(api, cookies, (n) => tinyJob(1 + (n % 5)), 2);
    load.start();

    const running = (pred: (j: { id: string; progress: number; worker_id: string }) => boolean) =>
      pollUntil(async () => (await view.running()).find(pred) ?? null, 120_000, 100);
    const workDirs = workers.map((w) => w.env.WORK_DIR as string);

    // 1. An engine process: its job fails with the signal (not retried: an OOM kill would strike again).
    const engineVictim = await pollUntil(async () => {
      for (const j of (await view.running()).filter((x) => x.progress > 0)) {
        const p = workDirs.flatMap((d) => engineProcesses(d)).find((e) => e.jobDir.includes(j.id));
        if (p) return { id: j.id, pid: p.pid };
      }
      return null;
    }, 120_000);
    process.kill(engineVictim.pid, 'SIGKILL');
    await pollUntil(async () => (await view.jobs([engineVictim.id]))[0]?.status === 'failed', 60_000);
    step(`engine of ${engineVictim.id} killed`);

    // 2. A worker: its jobs' leases expire and another worker takes them; it is restarted on its WORK_DIR.
    const w0 = workers[0] as ServerProcess;
    const onW0 = await running((j) => j.progress > 0 && j.worker_id.endsWith(`:${w0.pid}`));
    await w0.stop('SIGKILL');
    step(`worker ${w0.pid} killed while running ${onW0.id}`);
    await w0.start();

    // 3. An API process, mid-run and mid-submit: the other one carries on; it is restarted.
    await running((j) => j.progress > 0);
    const a = api[0] as ServerProcess;
    load.outage(true);
    await a.stop('SIGKILL');
    step('API process a killed');
    await new Promise((r) => setTimeout(r, 1500));
    await a.start();
    load.outage(false, 1000);

    // 4. Redis crashes and comes back empty: queued and active BullMQ entries are gone.
    await running((j) => j.progress > 0);
    load.outage(true);
    await redis.kill();
    step('Redis killed');
    await new Promise((r) => setTimeout(r, 2000));
    await redis.start();
    load.outage(false, 3000);
    step('Redis restarted (empty)');

    // 5. PostgreSQL crashes under the load and comes back.
    await running((j) => j.progress > 0);
    load.outage(true);
    pg.stop('immediate');
    step('PostgreSQL killed');
    await new Promise((r) => setTimeout(r, 2000));
    pg.start();
    load.outage(false, 3000);
    step('PostgreSQL restarted');
    await new Promise((r) => setTimeout(r, 3000)); // the load carries on against the restarted database

    await load.stop();
    step(`load stopped: ${load.summary()}`);
    const ids = await view.allJobIds();
    await pollUntil(
      async () => (await view.jobs(ids)).every((j) => j.status === 'completed' || j.status === 'failed'),
      180_000,
      250,
    ).catch(async () => {
      throw new Error(
        `jobs still open: ${JSON.stringify((await view.jobs(ids)).filter((j) => j.status !== 'completed' && j.status !== 'failed'))}`,
      );
    });
    // Workers sweep WORK_DIR of attempts that are over; give them one pass.
    await pollUntil(async () => workDirs.every((d) => view.workFiles(d).length === 0), 30_000, 250).catch(
      () => null,
    );

    const { counts, jobs, problems } = await faultCounts(view, ids);
    const work = workDirs.flatMap((d) => view.workFiles(d).map((f) => `${d}/${f}`));
    const orphans = await view.orphanObjects();
    const died = procs.filter((p) => !p.running).map((p) => p.log);
    console.log(
      `faults (bullmq): jobs submitted ${counts.submitted} (acknowledged ${load.acknowledged.size}) / completed ${counts.completed} / failed ${counts.failed} / lost ${counts.lost} / double-charged ${counts.doubleCharged}; ` +
        `SIGKILLs: engine 1, worker 1, API 1; Redis restarts 1; PostgreSQL restarts 1; files left in WORK_DIR ${work.length}; orphaned objects ${orphans.length}`,
    );
    for (const j of jobs.filter((x) => x.status === 'failed'))
      console.log(`  failed ${j.id}: ${j.error_code}: ${j.error_message}`);

    expect(died, 'processes that died by themselves').toEqual([]);
    expect(problems).toEqual([]);
    expect(counts.lost).toBe(0);
    expect(counts.doubleCharged).toBe(0);
    expect([...load.acknowledged].every((id) => ids.includes(id))).toBe(true);
    const byId = new Map(jobs.map((j) => [j.id, j]));
    expect(byId.get(engineVictim.id)?.error_message).toMatch(/ended unexpectedly \(signal SIGKILL\)/);
    for (const j of jobs.filter((x) => x.status === 'failed' && x.id !== engineVictim.id))
      expect(`${j.error_code}: ${j.error_message}`).toMatch(
        new RegExp(`worker_lost: .*interrupted ${MAX_ATTEMPTS} times`),
      );
    expect(counts.completed).toBeGreaterThan(counts.submitted / 2);
    expect(work).toEqual([]);
    expect(orphans).toEqual([]);
    expect(workDirs.flatMap((d) => engineProcesses(d))).toEqual([]);
    expect(load.serverErrors, 'replies with a 5xx outside the outages').toEqual([]);
  }, 600_000);
});
