import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pollUntil, tinyJob, writeTestPlans } from '../support/compute.ts';
import { jsonHeaders, ServerProcess } from '../support/server-process.ts';
import { DataDirView, engineProcesses, faultCounts } from './fault-ledger.ts';

const JOBS = 10;

/**
 * The embedded default (one server process, SQLite, engine subprocesses) under SIGKILLs: an engine
 * process, then the server twice (the second time while a job runs its last allowed attempt).
 */
// Its server runs on SQLite whatever the step, so it runs once: in the SQLite step of `npm test`.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
  'faults: SIGKILL of an engine process and of the server mid-run (embedded queue)',
  () => {
    const plans = writeTestPlans(mkdtempSync(join(tmpdir(), 'fieldline-plans-')));
    const server = new ServerProcess({
      ENGINE_TEST_HOOKS: '1',
      WELCOME_GRANT_TOKENS: '100',
      JOB_MIN_ESTIMATE_SECONDS: '1',
      PLANS_FILE: plans,
      JOB_SLOTS: '2',
      JOB_MAX_ATTEMPTS: '2',
      SHUTDOWN_GRACE_SECONDS: '0',
    });
    const view = new DataDirView(server.dataDir);
    const workDir = join(server.dataDir, 'work');
    afterAll(() => server.stop());

    const runningWith = (pred: (j: { id: string; attempts: number; progress: number }) => boolean) =>
      pollUntil(async () => (await view.running()).find(pred) ?? null, 120_000, 100);

    const t0 = Date.now();
    const step = (what: string) =>
      console.log(`faults (embedded) +${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);

    it('ends every job exactly once, charges each at most once, and leaves no files behind', async () => {
      await server.start();
      const cookie = await server.register();
      const ids: string[] = [];
      for (let i = 0; i < JOBS; i++) {
        const res = await fetch(`${server.base}/api/fea/submit`, {
          method: 'POST',
          headers: { ...jsonHeaders(cookie), 'x-test-sleep-seconds': '2' },
          body: JSON.stringify(tinyJob(1 + i)),
        });
        expect(res.status, await res.clone().text()).toBe(200);
        ids.push(((await res.json()) as { job_id: string }).job_id);
      }

      // 1. SIGKILL one engine process: its job fails with a message; the server and the other jobs go on.
      const engineVictim = await runningWith((j) => j.progress > 0);
      const engine = await pollUntil(
        async () => engineProcesses(workDir).find((p) => p.jobDir.includes(engineVictim.id)) ?? null,
        30_000,
      );
      process.kill(engine.pid, 'SIGKILL');
      await pollUntil(async () => (await view.jobs([engineVictim.id]))[0]?.status === 'failed', 30_000);
      step(`engine of ${engineVictim.id} killed`);

      // 2. SIGKILL the server while jobs run: its engines exit by themselves (FIELDLINE_PARENT_PID), and the
      //    restarted server re-queues the interrupted jobs (the attempt counts).
      await runningWith((j) => j.id !== engineVictim.id && j.progress > 0);
      const interrupted = (await view.running()).map((j) => j.id);
      await server.stop('SIGKILL');
      step(`server killed with ${interrupted.length} jobs running`);
      await pollUntil(async () => engineProcesses(workDir).length === 0, 30_000, 200);
      await server.start();

      // 3. SIGKILL it again while a job runs its second (last) attempt: after this restart it is failed
      //    with a message instead of being tried a third time.
      await runningWith((j) => j.attempts === 2);
      const atSecondKill = await view.running();
      await server.stop('SIGKILL');
      step(`server killed again with ${atSecondKill.length} jobs running`);
      await pollUntil(async () => engineProcesses(workDir).length === 0, 30_000, 200);
      await server.start();

      await pollUntil(
        async () => (await view.jobs(ids)).every((j) => j.status === 'completed' || j.status === 'failed'),
        180_000,
        250,
      );
      const { counts, jobs, problems } = await faultCounts(view, ids);
      const work = view.workFiles();
      const orphans = await view.orphanObjects();
      console.log(
        `faults (embedded): jobs submitted ${counts.submitted} / completed ${counts.completed} / failed ${counts.failed} / lost ${counts.lost} / double-charged ${counts.doubleCharged}; ` +
          `server SIGKILLs 2, engine SIGKILLs 1; files left in WORK_DIR ${work.length}; orphaned objects ${orphans.length}`,
      );
      for (const j of jobs.filter((x) => x.status === 'failed'))
        console.log(`  failed ${j.id}: ${j.error_code}: ${j.error_message}`);

      expect(problems).toEqual([]);
      expect(counts.lost).toBe(0);
      expect(counts.doubleCharged).toBe(0);
      expect(counts.completed + counts.failed).toBe(JOBS);
      const byId = new Map(jobs.map((j) => [j.id, j]));
      expect(byId.get(engineVictim.id)?.error_message).toMatch(/ended unexpectedly \(signal SIGKILL\)/);
      for (const j of atSecondKill) {
        if (j.attempts === 2) {
          expect(byId.get(j.id), j.id).toMatchObject({
            status: 'failed',
            error_code: 'worker_lost',
            attempts: 2,
          });
          expect(byId.get(j.id)?.error_message).toMatch(/interrupted 2 times/);
        } else expect(byId.get(j.id), j.id).toMatchObject({ status: 'completed', attempts: 2 });
      }
      // Only those two kinds of failure: every other job completed, interrupted or not.
      for (const j of jobs.filter((x) => x.status === 'failed'))
        expect(
          j.id === engineVictim.id || atSecondKill.some((k) => k.id === j.id && k.attempts === 2),
          j.id,
        ).toBe(true);
      expect(interrupted.every((id) => byId.get(id)?.attempts === 2)).toBe(true);
      expect(work).toEqual([]);
      expect(orphans).toEqual([]);
      expect(engineProcesses(workDir)).toEqual([]);
    }, 600_000);
  },
);
