import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StudyStore } from '../../src/studies/study-store.ts';
import { pollUntil, submit } from '../support/compute.ts';
import { createStudy, voltageStudy, waitForStudy } from '../support/studies.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { registerTestUser } from '../support/users.ts';

/**
 * The study scheduler is quiet while it has nothing to move: an API process looks for unfinished studies only
 * when one of its points' jobs changes, while its studies run, or every 15 s when idle — not on every job of
 * every user (it did, twice a second, and each status update of any job woke it: the status-feed suite counted
 * those queries among the polls').
 */
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp({ ENGINE_TEST_HOOKS: '1' });
  cookie = (await registerTestUser(t.app)).cookie;
});
afterAll(async () => {
  await t?.close();
});

const status = async (jobId: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/fea/status/${jobId}`, headers: { cookie } })).json().status;

describe('the study scheduler', () => {
  it('makes no study query when a job that is no study point runs and finishes', async () => {
    await t.ctx.studyScheduler?.pass(); // nothing unfinished: idle
    const active = vi.spyOn(StudyStore.prototype, 'active');
    try {
      const res = await submit(t.app, cookie);
      expect(res.statusCode, res.body).toBe(200);
      const jobId = res.json().job_id as string;
      await pollUntil(async () => (await status(jobId)) === 'completed');
      await new Promise((r) => setTimeout(r, 1_500)); // three of the busy scheduler's ticks
      expect(active).not.toHaveBeenCalled();
    } finally {
      active.mockRestore();
    }
  });

  it('moves a study along while it runs, and goes quiet again once it has finished', async () => {
    const active = vi.spyOn(StudyStore.prototype, 'active');
    try {
      const res = await createStudy(t.app, cookie, voltageStudy(2), 1);
      expect(res.statusCode, res.body).toBe(201);
      const study = await waitForStudy(t.app, cookie, res.json().study_id);
      expect(study.progress.completed).toBe(2);
      await pollUntil(
        async () =>
          (await t.ctx.db.selectFrom('studies').select('finished_at').executeTakeFirst())?.finished_at,
      );
      const whileRunning = active.mock.calls.length;
      expect(whileRunning).toBeGreaterThan(1);
      await new Promise((r) => setTimeout(r, 1_500));
      // at most the pass that found nothing left to move
      expect(active.mock.calls.length - whileRunning).toBeLessThanOrEqual(1);
    } finally {
      active.mockRestore();
    }
  });
});
