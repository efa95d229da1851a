import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pollUntil, writeTestPlans } from '../support/compute.ts';
import {
  assertExactlyOnceAndBilled,
  assertPriorityOvertook,
  scenarioUsers,
  submitTwenty,
  waitAllFinished,
} from '../support/queue-scenario.ts';
import { createTestApp } from '../support/test-app.ts';

describe('embedded queue with a server restart in the middle', () => {
  it('completes 20 jobs from 3 users exactly once, priority first, billed once each', async () => {
    const plans = writeTestPlans(mkdtempSync(join(tmpdir(), 'fieldline-plans-')));
    // Graceful shutdown with no grace: running jobs are re-queued at once, not cancelled.
    const env = {
      ENGINE_TEST_HOOKS: '1',
      WELCOME_GRANT_TOKENS: '0',
      JOB_SLOTS: '2',
      PLANS_FILE: plans,
      SHUTDOWN_GRACE_SECONDS: '0',
    };
    const first = await createTestApp(env);
    const { dataDir } = first;
    const databaseUrl = first.ctx.config.databaseUrl;
    try {
      const users = await scenarioUsers(first);
      const { ids, waitingStandard } = await submitTwenty(first.app, first.ctx, users, 0.3);
      const all = ids.map((x) => x.id);
      // Restart once a few jobs are done and others are running.
      await pollUntil(async () => (await first.ctx.jobs.countByStatus('completed')) >= 6, 60_000);
      const runningAtStop = (
        await first.ctx.db.selectFrom('jobs').select('id').where('status', '=', 'running').execute()
      ).map((r) => r.id);
      expect(runningAtStop.length).toBeGreaterThan(0);
      await first.app.close();

      // Started without its queue first, to see what the shutdown left: nothing running, nothing lost.
      const second = await createTestApp(
        { ...env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
        { startQueue: false },
      );
      try {
        const left = await second.ctx.db
          .selectFrom('jobs')
          .select(['id', 'status'])
          .where('id', 'in', all)
          .execute();
        expect(left.filter((j) => j.status === 'running')).toEqual([]);
        expect(left.filter((j) => j.status === 'failed' || j.status === 'cancelled')).toEqual([]);
        await second.ctx.queue.start();
        await waitAllFinished(second.ctx, all, 90_000);
        const { runs } = await assertExactlyOnceAndBilled(second.ctx, all, users);
        // Jobs running at the stop were re-queued (not failed or cancelled) and finished after the restart.
        for (const id of runningAtStop) {
          const outcomes = runs.filter((r) => r.job_id === id).map((r) => r.outcome);
          expect(outcomes, id).toEqual(['requeued', 'completed']);
        }
        const priority = ids.filter((x) => x.user.plan === 'pro').map((x) => x.id);
        await assertPriorityOvertook(second.ctx, priority, waitingStandard, 2); // JOB_SLOTS=2
      } finally {
        await second.app.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
