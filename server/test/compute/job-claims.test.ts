import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queuedJob } from '../support/compute.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// The claim/lease/finish rules that make at-least-once delivery safe, on the real database (no queue).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ JOB_MAX_ATTEMPTS: '2', WELCOME_GRANT_TOKENS: '0' }, { startQueue: false });
});
afterAll(async () => t.close());

const newJob = () => queuedJob(t, 1);

const expireLease = (id: string) =>
  t.ctx.db
    .updateTable('jobs')
    .set({ lease_expires_at: new Date(0).toISOString() })
    .where('id', '=', id)
    .execute();

describe('claims, leases and attempts', () => {
  it('lets one worker hold a job; a duplicate delivery is refused while the lease is live', async () => {
    const { job } = await newJob();
    const first = await t.ctx.jobs.claim(job.id, 'w1', 60);
    expect(first.claimed).toBe(true);
    const dup = await t.ctx.jobs.claim(job.id, 'w2', 60);
    expect(dup).toMatchObject({ claimed: false, reason: 'held' });
    if (!first.claimed) return;
    // Another worker cannot finish, renew or re-queue the attempt it does not hold.
    const t0 = Date.now();
    expect(
      await t.ctx.jobs.finish(
        { ...first.job, worker_id: 'w2' },
        'w2',
        { status: 'cancelled', message: 'x' },
        { startedAt: t0, finishedAt: t0 },
      ),
    ).toBe(false);
    expect((await t.ctx.jobs.renewLease(first.job, 'w2', 60)).held).toBe(false);
    expect(await t.ctx.jobs.requeue(first.job, 'w2', 'x')).toBe(false);
    // The holder finishes once; a second finish (a duplicate run) records and charges nothing.
    const outcome = { status: 'completed' as const, files: [] };
    expect(
      await t.ctx.jobs.finish(first.job, 'w1', outcome, { startedAt: t0 - 36_000, finishedAt: t0 }),
    ).toBe(true);
    expect(
      await t.ctx.jobs.finish(first.job, 'w1', outcome, { startedAt: t0 - 72_000, finishedAt: t0 }),
    ).toBe(false);
    const charges = await t.ctx.db
      .selectFrom('usage_ledger')
      .selectAll()
      .where('job_id', '=', job.id)
      .execute();
    expect(charges).toHaveLength(1);
    expect(charges[0]?.tokens).toBeCloseTo(-0.01, 6); // 36 s = 0.01 compute-hours
    expect(await t.ctx.jobs.claim(job.id, 'w3', 60)).toMatchObject({ claimed: false, reason: 'finished' });
  });

  it('takes over a job whose lease expired, and fails it (uncharged) after JOB_MAX_ATTEMPTS', async () => {
    const { job } = await newJob();
    const a1 = await t.ctx.jobs.claim(job.id, 'w1', 60);
    expect(a1.claimed).toBe(true);
    await expireLease(job.id); // w1 died
    const a2 = await t.ctx.jobs.claim(job.id, 'w2', 60);
    expect(a2.claimed && a2.job.attempts).toBe(2);
    // The dead worker's late result is discarded.
    const t0 = Date.now();
    if (a1.claimed)
      expect(
        await t.ctx.jobs.finish(
          a1.job,
          'w1',
          { status: 'completed', files: [] },
          { startedAt: t0, finishedAt: t0 },
        ),
      ).toBe(false);
    await expireLease(job.id); // w2 died too
    expect(await t.ctx.jobs.claim(job.id, 'w3', 60)).toMatchObject({ claimed: false, reason: 'exhausted' });
    const row = await t.ctx.jobs.get(job.id);
    expect(row).toMatchObject({ status: 'failed', error_code: 'worker_lost', cost_tokens: 0 });
    expect(row?.error_message).toMatch(
      /^The job was interrupted 2 times .* Nothing was charged; please submit it again\.$/,
    );
    const runs = await t.ctx.db
      .selectFrom('job_runs')
      .select(['attempt', 'worker_id', 'outcome'])
      .where('job_id', '=', job.id)
      .orderBy('attempt')
      .execute();
    expect(runs).toEqual([
      { attempt: 1, worker_id: 'w1', outcome: 'superseded' },
      { attempt: 2, worker_id: 'w2', outcome: null },
    ]);
    expect(
      await t.ctx.db.selectFrom('usage_ledger').selectAll().where('job_id', '=', job.id).execute(),
    ).toEqual([]);
  });

  it('the reaper re-queues expired leases while attempts remain', async () => {
    const { job } = await newJob();
    await t.ctx.jobs.claim(job.id, 'w1', 60);
    await expireLease(job.id);
    const reaped = await t.ctx.jobs.reapExpiredLeases();
    expect(reaped.requeued).toContain(job.id);
    expect(await t.ctx.jobs.get(job.id)).toMatchObject({ status: 'queued', attempts: 1, worker_id: null });
  });
});
