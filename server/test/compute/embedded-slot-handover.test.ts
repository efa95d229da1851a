import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { creditTokens, pollUntil, signedInUser, tinyJob } from '../support/compute.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * The embedded queue's slots bound the engines running at once, not the jobs still storing their results:
 * a slot's next job is claimed as soon as the previous job's engine has ended, while that job's results are
 * stored and its outcome recorded (a study's points follow each other without that gap; bench/studies).
 * Real engine, real SQLite, real encrypted storage.
 */
describe('an embedded slot hands over when the engine ends', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ JOB_SLOTS: '1' }, { startQueue: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('claims the next job while the previous one stores its results, never two engines at once', async () => {
    const { userId } = await signedInUser(t);
    await creditTokens(t.ctx, userId, 5);
    const create = (volts: number) =>
      t.ctx.jobs.create({
        owner: { userId, sessionHash: null },
        kind: 'analysis',
        analysisType: 'em',
        queue: 'standard',
        input: tinyJob(volts),
        planId: 'token',
      });
    const first = await create(1);
    await new Promise((r) => setTimeout(r, 5)); // queued later: claimed second
    const second = await create(2);

    // The first job's results take 400 ms to store; when the second is staged in, the first's engine must
    // have written its results (it has ended: the runner frees the slot only once its process is gone).
    const files = t.ctx.jobs.files;
    const stageOut = files.stageOut.bind(files);
    const stageIn = files.stageIn.bind(files);
    let firstStoringFrom = 0;
    let firstResultsAtSecondStart: boolean | null = null;
    const outSpy = vi.spyOn(files, 'stageOut').mockImplementation(async (jobId, dir) => {
      if (jobId === first.id) {
        firstStoringFrom = Date.now();
        await new Promise((r) => setTimeout(r, 400));
      }
      return stageOut(jobId, dir);
    });
    const inSpy = vi.spyOn(files, 'stageIn').mockImplementation(async (jobId, attempt) => {
      if (jobId === second.id)
        firstResultsAtSecondStart = existsSync(join(files.localDir(first.id, 1), 'results.json'));
      return stageIn(jobId, attempt);
    });
    try {
      await t.ctx.queue.start();
      const done = await pollUntil(async () => {
        const rows = await t.ctx.db
          .selectFrom('jobs')
          .selectAll()
          .where('id', 'in', [first.id, second.id])
          .execute();
        return rows.every((r) => r.status === 'completed') ? rows : null;
      }, 60_000);
      const a = done.find((r) => r.id === first.id);
      const b = done.find((r) => r.id === second.id);
      // the first ran first, and the second was claimed once the first's engine had ended …
      expect(Date.parse(a?.started_at ?? '')).toBeLessThan(Date.parse(b?.started_at ?? ''));
      expect(firstResultsAtSecondStart).toBe(true);
      // … while the first's results were still being stored (its outcome not yet recorded)
      expect(firstStoringFrom).toBeGreaterThan(0);
      expect(Date.parse(b?.started_at ?? '')).toBeLessThan(firstStoringFrom + 400);
      expect(Date.parse(b?.started_at ?? '')).toBeLessThan(Date.parse(a?.finished_at ?? ''));
      expect(a?.compute_seconds).toBeGreaterThan(0.4); // storing its results is part of its run
    } finally {
      outSpy.mockRestore();
      inSpy.mockRestore();
    }
  }, 120_000);
});
