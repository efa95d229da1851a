import {
  DebugAllDataResponse,
  DebugAwsConnectionResponse,
  DebugRecentTasksResponse,
  DebugTestTaskResponse,
} from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/app-context.ts';
import { RetentionSweeper } from '../../src/retention-sweeper.ts';
import { creditTokens, pollUntil, signedInUser, submit } from '../support/compute.ts';
import { cookieFrom, createTestApp, type TestApp, waitForJob } from '../support/test-app.ts';
import { registerTestAdmin } from '../support/users.ts';

/** The sweeper as buildApp wires it, over the test app's own database, jobs and uploads. */
const sweeperOver = (ctx: AppContext) =>
  new RetentionSweeper(
    {
      db: ctx.db,
      jobs: ctx.jobs,
      uploads: ctx.uploads,
      log: ctx.log,
      retentionHours: ctx.config.compute.retentionHours,
    },
    3600,
  );

let t: TestApp;
let owner: { userId: string; cookie: string };
let jobId: string;

beforeAll(async () => {
  t = await createTestApp({ ENGINE_TEST_HOOKS: '1' });
  owner = await signedInUser(t);
  await creditTokens(t.ctx, owner.userId, 1);
  jobId = (await submit(t.app, owner.cookie)).json().job_id;
  await waitForJob(t.app, jobId, owner.cookie);
});
afterAll(async () => t.close());

describe('object-level access', () => {
  it("answers 404 to another user and to a guest on every route that names the owner's job", async () => {
    const stranger = await signedInUser(t);
    const guestCookie = cookieFrom(
      await submit(t.app, null, { mesh_data: { vertices: [] }, config: {} }).then(async () =>
        t.app.inject({
          method: 'POST',
          url: '/api/fea/submit',
          payload: {
            mesh_data: { vertices: [[0, 0, 0]], faces: [[0, 0, 0]] },
            config: { meshingOnly: true, analysisType: 'tetra-only' },
          },
        }),
      ),
    );
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/fea/status/${jobId}`],
      ['GET', `/api/fea/download/${jobId}`],
      ['GET', `/api/fea/results/${jobId}/info`],
      ['POST', `/api/fea/cancel/${jobId}`],
      ['POST', `/api/fea/save/${jobId}`],
      ['POST', '/api/admin/test-ecs-task', { task_arn: `arn:fieldline:compute:local:task/${jobId}` }],
    ];
    for (const cookie of [stranger.cookie, guestCookie]) {
      for (const [method, url, payload] of calls) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: { cookie },
          payload: payload as object,
        });
        const expected = url.startsWith('/api/admin') && cookie === guestCookie ? 401 : 404;
        expect(res.statusCode, `${method} ${url}`).toBe(expected);
      }
    }
    // The owner's view works, and the stranger's lists and counts never include the owner's job.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/fea/status/${jobId}`,
          headers: { cookie: owner.cookie },
        })
      ).statusCode,
    ).toBe(200);
    const tasks = (
      await t.app.inject({
        method: 'GET',
        url: '/api/admin/list-recent-ecs-tasks',
        headers: { cookie: stranger.cookie },
      })
    ).json();
    expect(tasks).toEqual({ success: true, tasks: [] });
    const data = (
      await t.app.inject({
        method: 'GET',
        url: '/api/admin/debug-all-data',
        headers: { cookie: stranger.cookie },
      })
    ).json();
    expect(data).toMatchObject({ table_exists: true, user_logs_count: 0, all_logs_count: 0 });
  });
});

describe('debug endpoints', () => {
  it('describe the caller’s jobs as ECS-style tasks and the compute backend', async () => {
    const headers = { cookie: owner.cookie };
    const data = (await t.app.inject({ method: 'GET', url: '/api/admin/debug-all-data', headers })).json();
    expect(data).toMatchObject({ success: true, table_exists: true, user_logs_count: 1, all_logs_count: 1 });
    DebugAllDataResponse.parse(data); // the documented reply (/api/docs)

    const aws = (
      await t.app.inject({ method: 'GET', url: '/api/admin/debug-aws-connection', headers })
    ).json();
    DebugAwsConnectionResponse.parse(aws);
    expect(aws).toMatchObject({
      success: true,
      backend: 'embedded',
      aws_region: 'local',
      queue_name: 'standard',
    });
    expect(aws.job_queues.map((q: { jobQueueName: string }) => q.jobQueueName)).toEqual([
      'priority',
      'standard',
    ]);
    expect(aws.job_queues[0]).toMatchObject({ state: 'ENABLED', depth: 0, workers: 1 });

    const list = (
      await t.app.inject({ method: 'GET', url: '/api/admin/list-recent-ecs-tasks', headers })
    ).json();
    DebugRecentTasksResponse.parse(list);
    expect(list.success).toBe(true);
    expect(list.tasks).toHaveLength(1);
    const task = list.tasks[0];
    expect(task.taskArn.split('/').pop()).toBe(jobId);
    expect(task.taskDefinitionArn.split('/').pop()).toBe('fieldline-analysis-em:1');
    expect(task).toMatchObject({ lastStatus: 'STOPPED', cpu: '1024', memory: '8192' });
    expect(task.createdAt <= task.startedAt && task.startedAt <= task.stoppedAt).toBe(true);

    for (const ref of [task.taskArn, jobId, `  ${jobId}  `]) {
      const one = await t.app.inject({
        method: 'POST',
        url: '/api/admin/test-ecs-task',
        headers,
        payload: { task_arn: ref },
      });
      expect(one.statusCode).toBe(200);
      DebugTestTaskResponse.parse(one.json());
      expect(one.json().task).toMatchObject({
        jobId,
        status: 'completed',
        attempts: 1,
        runs: [{ attempt: 1, outcome: 'completed' }],
      });
    }
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/admin/test-ecs-task',
      headers,
      payload: { task_arn: '  ' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Please enter a task ARN or task ID');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/debug-all-data' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('gives administrators global counts and any job, and nobody else', async () => {
    const admin = await registerTestAdmin(t.app, t.ctx);
    const headers = { cookie: admin.cookie };
    const all = await t.ctx.jobs.countForUser(null);
    const data = (await t.app.inject({ method: 'GET', url: '/api/admin/debug-all-data', headers })).json();
    expect(data).toMatchObject({ user_logs_count: 0, all_logs_count: all, scope: 'all users' });
    expect(all).toBeGreaterThan(0);
    const one = await t.app.inject({
      method: 'POST',
      url: '/api/admin/test-ecs-task',
      headers,
      payload: { task_arn: jobId },
    });
    expect(one.json().task.jobId).toBe(jobId);
    // The admin's own task list stays their own.
    const tasks = (
      await t.app.inject({ method: 'GET', url: '/api/admin/list-recent-ecs-tasks', headers })
    ).json();
    expect(tasks.tasks).toEqual([]);
  });

  it('health reports queue depth per named queue, workers and slots', async () => {
    const idle = async () => (await t.app.inject({ method: 'GET', url: '/api/fea/health' })).json().queue;
    await pollUntil(async () => {
      const q = await idle();
      return q.running === 0 && q.queued === 0;
    });
    const busy = (await submit(t.app, owner.cookie, undefined, 3)).json().job_id;
    await new Promise((r) => setTimeout(r, 300));
    const during = (await t.app.inject({ method: 'GET', url: '/api/fea/health' })).json();
    expect(during.queue).toMatchObject({ backend: 'embedded', slots: 2, workers: 1, running: 1 });
    expect(during.queue.queues).toEqual([
      { name: 'priority', queued: 0, running: 0 },
      { name: 'standard', queued: 0, running: 1 },
    ]);
    await waitForJob(t.app, busy, owner.cookie);
    const health = (await t.app.inject({ method: 'GET', url: '/api/fea/health' })).json();
    expect(health.queue).toMatchObject({ backend: 'embedded', slots: 2, workers: 1, queued: 0, running: 0 });
    expect(health.queue.queues).toEqual([
      { name: 'priority', queued: 0, running: 0 },
      { name: 'standard', queued: 0, running: 0 },
    ]);
  });
});

describe('retention', () => {
  it('deletes unsaved job files after the retention time and keeps saved ones', async () => {
    const savedId = jobId;
    const unsavedId = (await submit(t.app, owner.cookie)).json().job_id;
    await waitForJob(t.app, unsavedId, owner.cookie);
    const save = await t.app.inject({
      method: 'POST',
      url: `/api/fea/save/${savedId}`,
      headers: { cookie: owner.cookie },
    });
    expect(save.json()).toMatchObject({ job_id: savedId, saved: true });
    const store = t.ctx.compute.storage;
    const storedBefore = await store.list(`jobs/${unsavedId}`);
    expect(storedBefore).toEqual(
      expect.arrayContaining([`jobs/${unsavedId}/job.json`, `jobs/${unsavedId}/out/results.json`]),
    );

    const sweeper = sweeperOver(t.ctx);
    expect((await sweeper.sweep(Date.now())).jobs).toEqual([]); // nothing is old enough yet
    const later = Date.now() + 25 * 3600 * 1000;
    const swept = await sweeper.sweep(later);
    expect(swept.jobs).toContain(unsavedId);
    expect(swept.jobs).not.toContain(savedId);
    expect(await store.list(`jobs/${unsavedId}`)).toEqual([]);
    expect(await store.list(`jobs/${savedId}`)).toHaveLength(storedBefore.length);

    const gone = (
      await t.app.inject({
        method: 'GET',
        url: `/api/fea/status/${unsavedId}`,
        headers: { cookie: owner.cookie },
      })
    ).json();
    expect(gone.status).toBe('completed');
    expect(gone.results).toBeUndefined();
    expect(gone.message).toBe(
      'The results were deleted 24 h after the job finished because the job was not saved.',
    );
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/fea/download/${unsavedId}`,
      headers: { cookie: owner.cookie },
    });
    expect(download.statusCode).toBe(404);
    const kept = (
      await t.app.inject({
        method: 'GET',
        url: `/api/fea/status/${savedId}`,
        headers: { cookie: owner.cookie },
      })
    ).json();
    expect(kept.results.solver_info.elements).toBe(6);
    expect((await sweeper.sweep(later)).jobs).toEqual([]);
    const late = await t.app.inject({
      method: 'POST',
      url: `/api/fea/save/${unsavedId}`,
      headers: { cookie: owner.cookie },
    });
    expect(late.statusCode).toBe(410);
  });

  it('deletes unsaved uploads after the retention time; a saved one survives; only its owner may save it', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const makeUpload = async (name: string) => {
      const scratch = await t.ctx.uploads.store.scratchDir();
      const file = join(scratch, 'model.step');
      writeFileSync(file, 'ISO-10303-21; secret bracket geometry');
      return t.ctx.uploads.create(
        {
          owner: { userId: owner.userId, sessionHash: null },
          originalName: name,
          format: 'step',
          sizeBytes: 37,
          sha256: 'x',
          units: 'mm',
          bodyCount: 1,
          triangleCount: 12,
        },
        file,
      );
    };
    const kept = await makeUpload('kept.step');
    const dropped = await makeUpload('dropped.step');
    const stranger = await signedInUser(t);
    const denied = await t.app.inject({
      method: 'POST',
      url: `/api/uploads/${kept.id}/save`,
      headers: { cookie: stranger.cookie },
    });
    expect(denied.statusCode).toBe(404);
    const save = await t.app.inject({
      method: 'POST',
      url: `/api/uploads/${kept.id}/save`,
      headers: { cookie: owner.cookie },
    });
    expect(save.json()).toMatchObject({ upload_id: kept.id, saved: true });
    const stored = await t.ctx.compute.storage.blobs.get(`uploads/${dropped.storage_key}`);
    expect(stored?.includes(Buffer.from('secret bracket'))).toBe(false); // encrypted at rest

    const sweeper = sweeperOver(t.ctx);
    expect((await sweeper.sweep(Date.now())).uploads).toEqual([]);
    const swept = await sweeper.sweep(Date.now() + 25 * 3600 * 1000);
    expect(swept.uploads).toContain(dropped.id);
    expect(swept.uploads).not.toContain(kept.id);
    const left = await t.ctx.db
      .selectFrom('uploads')
      .select('id')
      .where('id', 'in', [kept.id, dropped.id])
      .execute();
    expect(left).toEqual([{ id: kept.id }]);
    expect(await t.ctx.uploads.store.read(dropped.storage_key)).toBeNull();
    expect((await t.ctx.uploads.store.read(kept.storage_key))?.toString()).toBe(
      'ISO-10303-21; secret bracket geometry',
    );
  });

  it('keeps job files encrypted at rest in the data directory', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = join(t.dataDir, 'objects', 'jobs', jobId);
    const input = readFileSync(join(dir, 'job.json'));
    const results = readFileSync(join(dir, 'out', 'results.json'));
    expect(input.includes(Buffer.from('dirichletFaceConditions'))).toBe(false);
    expect(results.includes(Buffer.from('solver_info'))).toBe(false);
    expect(readdirSync(join(t.dataDir, 'work'))).toEqual([]); // plaintext staging is cleaned up
  });
});
