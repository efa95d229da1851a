import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/app-context.ts';
import { pollUntil } from '../support/compute.ts';
import { createStudy, voltageStudy, waitForStudy } from '../support/studies.ts';
import { createTestApp } from '../support/test-app.ts';
import { registerTestUser } from '../support/users.ts';

/** Every point ran once and is charged once: one job per point, one completed run per job, one ledger row. */
async function assertEachPointOnce(ctx: AppContext, studyId: string) {
  const points = await ctx.db
    .selectFrom('study_points')
    .selectAll()
    .where('study_id', '=', studyId)
    .execute();
  const jobIds = points.map((p) => p.job_id as string);
  expect(new Set(jobIds).size).toBe(points.length);
  const jobs = await ctx.db.selectFrom('jobs').selectAll().where('id', 'in', jobIds).execute();
  expect(jobs.map((j) => j.status)).toEqual(points.map(() => 'completed'));
  const runs = await ctx.db.selectFrom('job_runs').selectAll().where('job_id', 'in', jobIds).execute();
  for (const id of jobIds)
    expect(
      runs.filter((r) => r.job_id === id && r.outcome === 'completed'),
      id,
    ).toHaveLength(1);
  const ledger = await ctx.db
    .selectFrom('usage_ledger')
    .selectAll()
    .where('source', '=', 'job')
    .where('source_id', 'in', jobIds)
    .execute();
  expect(ledger.map((l) => l.source_id).sort()).toEqual([...jobIds].sort());
  // Exactly one analysis job per point exists for this user: no orphan or duplicate job was written.
  const owned = await ctx.db
    .selectFrom('jobs')
    .select('id')
    .where('owner_user_id', '=', jobs[0]?.owner_user_id ?? '')
    .execute();
  expect(owned.length).toBe(points.length);
  return { points, runs };
}

describe('a study across a server restart', () => {
  it('loses no point and charges none twice; a point recorded but not yet written as a job is written once', async () => {
    const env = { ENGINE_TEST_HOOKS: '1', JOB_SLOTS: '2', SHUTDOWN_GRACE_SECONDS: '0' };
    const first = await createTestApp(env);
    const { dataDir } = first;
    const databaseUrl = first.ctx.config.databaseUrl;
    try {
      const user = await registerTestUser(first.app);
      const res = await createStudy(first.app, user.cookie, voltageStudy(8), 1.5);
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().study_id as string;
      // Stop once some points are done and two are running.
      await pollUntil(
        async () => {
          const rows = await first.ctx.db
            .selectFrom('study_points')
            .select('status')
            .where('study_id', '=', id)
            .execute();
          return (
            rows.filter((r) => r.status === 'completed').length >= 2 &&
            rows.filter((r) => r.status === 'running').length === 2
          );
        },
        90_000,
        50,
      );
      const runningAtStop = (
        await first.ctx.db.selectFrom('jobs').select('id').where('status', '=', 'running').execute()
      ).map((r) => r.id);
      await first.app.close();

      const second = await createTestApp(
        { ...env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
        { startQueue: false },
      );
      try {
        // As if the process had died between recording a point's job id and writing its job.
        const waiting = await second.ctx.db
          .selectFrom('study_points')
          .selectAll()
          .where('study_id', '=', id)
          .where('status', '=', 'pending')
          .orderBy('idx')
          .executeTakeFirstOrThrow();
        const recorded = randomUUID();
        await second.ctx.db
          .updateTable('study_points')
          .set({ status: 'queued', job_id: recorded })
          .where('study_id', '=', id)
          .where('idx', '=', waiting.idx)
          .execute();
        await second.ctx.queue.start();
        second.ctx.studyScheduler?.start();
        const done = await waitForStudy(second.app, user.cookie, id, 120_000);
        expect(done.status).toBe('completed');
        expect(done.points.every((p) => p.status === 'completed' && p.outputs.stored_energy_J !== null)).toBe(
          true,
        );
        expect(done.points[waiting.idx]?.job_id).toBe(recorded);
        const { runs } = await assertEachPointOnce(second.ctx, id);
        for (const jobId of runningAtStop)
          expect(
            runs.filter((r) => r.job_id === jobId).map((r) => r.outcome),
            jobId,
          ).toEqual(['requeued', 'completed']);
      } finally {
        await second.app.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
