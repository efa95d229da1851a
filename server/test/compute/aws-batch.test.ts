import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import {
  DebugAwsConnectionResponse,
  DebugRecentTasksResponse,
  DebugTestTaskResponse,
  ResultsInfoResponse,
} from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncBatchUsage } from '../../src/billing/batch-usage.ts';
import { AwsBatchQueue } from '../../src/jobs/aws-batch-queue.ts';
import {
  creditTokens,
  pollUntil,
  signedInUser,
  submit,
  tinyJob,
  writeTestPlans,
} from '../support/compute.ts';
import { MOTO_REGION as REGION, setUpMotoBatch } from '../support/moto-batch.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// moto in server mode (scripts/with-moto.sh exports TEST_S3_ENDPOINT): S3 for the job files, Batch for
// the jobs. moto's Batch runs containers with docker, which is not available here, so moto is switched
// to its docker-less Batch (jobs are marked finished at once) and the test runs the container's
// command, `fieldline batch-run <jobId>`, itself, with AWS_BATCH_JOB_ID as Batch would set it.
const endpoint = process.env.TEST_S3_ENDPOINT;
const SERVER_DIR = resolve(import.meta.dirname, '..', '..');

describe.skipIf(!endpoint)('COMPUTE_BACKEND=aws-batch (moto Batch + S3)', () => {
  let t: TestApp;
  let env: Record<string, string>;
  let queue: AwsBatchQueue;
  let user: { userId: string; cookie: string };

  /** Runs the Batch container's command for the job's latest submission, as Batch would. */
  async function runWorker(jobId: string, opts: { killAfter?: () => Promise<unknown> } = {}) {
    const subs = await queue.submissionsOf(jobId);
    const batchJobId = subs.at(-1)?.batch_job_id ?? '';
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'batch-run', jobId], {
      cwd: SERVER_DIR,
      env: { ...process.env, ...env, AWS_BATCH_JOB_ID: batchJobId },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout?.on('data', (b) => {
      out += b;
    });
    proc.stderr?.on('data', (b) => {
      out += b;
    });
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    if (opts.killAfter) {
      await opts.killAfter();
      proc.kill('SIGKILL');
    }
    return { code: await exited, out, batchJobId };
  }

  beforeAll(async () => {
    process.env.AWS_ACCESS_KEY_ID ??= 'testing';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'testing';
    const base = endpoint as string;
    const bucket = `fieldline-batch-${Date.now()}`;
    await new S3Client({ region: REGION, endpoint: base, forcePathStyle: true }).send(
      new CreateBucketCommand({ Bucket: bucket }),
    );
    const moto = await setUpMotoBatch(base);
    const shared = {
      COMPUTE_BACKEND: 'aws-batch',
      AWS_REGION: REGION,
      BATCH_ENDPOINT: base,
      BATCH_JOB_QUEUE: moto.standard,
      BATCH_PRIORITY_JOB_QUEUE: moto.priority,
      BATCH_JOB_DEFINITION: moto.definition ?? '',
      BATCH_POLL_SECONDS: '0',
      STORAGE_BACKEND: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: base,
      WELCOME_GRANT_TOKENS: '0',
      ENGINE_TEST_HOOKS: '1',
      JOB_LEASE_SECONDS: '3',
      JOB_MAX_ATTEMPTS: '2',
      PLANS_FILE: writeTestPlans(mkdtempSync(join(tmpdir(), 'fieldline-plans-'))),
    };
    t = await createTestApp(shared);
    env = {
      ...shared,
      DATA_DIR: t.dataDir,
      DATABASE_URL: t.ctx.config.databaseUrl,
      SHUTDOWN_GRACE_SECONDS: '1',
      LOG_LEVEL: 'info',
    };
    expect(t.ctx.queue).toBeInstanceOf(AwsBatchQueue);
    queue = t.ctx.queue as AwsBatchQueue;
    user = await signedInUser(t);
    await creditTokens(t.ctx, user.userId, 5);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('submits a job to Batch, the worker entrypoint runs it from S3, and the debug calls show the Batch job', async () => {
    const res = await submit(t.app, user.cookie, tinyJob(2));
    expect(res.statusCode, res.body).toBe(200);
    const jobId = res.json().job_id as string;
    const [sub] = await queue.submissionsOf(jobId);
    expect(sub?.job_queue).toBe(env.BATCH_JOB_QUEUE);
    expect(sub?.job_arn).toMatch(/^arn:aws:batch:us-east-1:\d+:job\//);
    // The inputs are in S3 (encrypted) before any worker runs.
    expect(await t.ctx.compute.storage.get(`jobs/${jobId}/job.json`)).not.toBeNull();

    const run = await runWorker(jobId);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain(`batch-run ${jobId}: finished`);
    const job = await t.ctx.jobs.get(jobId);
    expect(job?.status, job?.error_message ?? '').toBe('completed');
    const runs = await t.ctx.db.selectFrom('job_runs').selectAll().where('job_id', '=', jobId).execute();
    expect(runs.map((r) => r.worker_id)).toEqual([`batch:${run.batchJobId}`]);
    const results = await t.app.inject({
      method: 'GET',
      url: `/api/fea/results/${jobId}/info`,
      headers: { cookie: user.cookie },
    });
    expect(results.statusCode, results.body).toBe(200);
    ResultsInfoResponse.parse(results.json());

    await queue.poll();
    const conn = await t.app.inject({
      method: 'GET',
      url: '/api/admin/debug-aws-connection',
      headers: { cookie: user.cookie },
    });
    expect(conn.statusCode, conn.body).toBe(200);
    DebugAwsConnectionResponse.parse(conn.json());
    expect(conn.json()).toMatchObject({
      success: true,
      backend: 'aws-batch',
      aws_region: REGION,
      queue_name: env.BATCH_JOB_QUEUE,
    });
    const names = conn.json().job_queues.map((q: { jobQueueName: string }) => q.jobQueueName);
    expect(names).toEqual(expect.arrayContaining([env.BATCH_JOB_QUEUE, env.BATCH_PRIORITY_JOB_QUEUE]));

    const recent = await t.app.inject({
      method: 'GET',
      url: '/api/admin/list-recent-ecs-tasks',
      headers: { cookie: user.cookie },
    });
    expect(recent.statusCode, recent.body).toBe(200);
    DebugRecentTasksResponse.parse(recent.json());
    const task = recent.json().tasks.find((x: { jobId: string }) => x.jobId === jobId);
    expect(task).toMatchObject({
      taskArn: sub?.job_arn,
      lastStatus: 'STOPPED',
      cpu: '1024',
      memory: '2048',
    });
    expect(task.taskDefinitionArn).toMatch(/job-definition\//);
    for (const k of ['createdAt', 'startedAt', 'stoppedAt']) expect(typeof task[k]).toBe('string');

    for (const ref of [sub?.job_arn, sub?.batch_job_id, jobId]) {
      const one = await t.app.inject({
        method: 'POST',
        url: '/api/admin/test-ecs-task',
        headers: { cookie: user.cookie },
        payload: { task_arn: ref },
      });
      expect(one.statusCode, one.body).toBe(200);
      DebugTestTaskResponse.parse(one.json());
      expect(one.json().task.jobId).toBe(jobId);
      expect(one.json().task.batch[0]).toMatchObject({ taskArn: sub?.job_arn, batchStatus: 'SUCCEEDED' });
    }
    const other = await signedInUser(t);
    const hidden = await t.app.inject({
      method: 'POST',
      url: '/api/admin/test-ecs-task',
      headers: { cookie: other.cookie },
      payload: { task_arn: sub?.job_arn },
    });
    expect(hidden.statusCode).toBe(404);

    const sync1 = await t.app.inject({
      method: 'POST',
      url: '/api/user/sync-usage',
      headers: { cookie: user.cookie },
    });
    expect(sync1.statusCode, sync1.body).toBe(200);
    const sync2 = await t.app.inject({
      method: 'POST',
      url: '/api/user/sync-usage',
      headers: { cookie: user.cookie },
    });
    expect(sync2.json()).toMatchObject({ success: true, hours_added: 0 });
  }, 120_000);

  it('retries a job whose worker was killed on a new Batch job, within JOB_MAX_ATTEMPTS', async () => {
    const res = await submit(t.app, user.cookie, tinyJob(3), 3);
    expect(res.statusCode, res.body).toBe(200);
    const jobId = res.json().job_id as string;
    const killed = await runWorker(jobId, {
      killAfter: () => pollUntil(async () => (await t.ctx.jobs.get(jobId))?.status === 'running', 60_000),
    });
    expect(killed.code).toBeNull();
    // Lease (3 s) runs out; the poll re-queues the job and submits it to Batch again.
    await pollUntil(
      async () => {
        await queue.poll();
        return (await queue.submissionsOf(jobId)).length === 2;
      },
      30_000,
      500,
    );
    const again = await runWorker(jobId);
    expect(again.code, again.out).toBe(0);
    expect(again.batchJobId).not.toBe(killed.batchJobId);
    const job = await t.ctx.jobs.get(jobId);
    expect(job?.status).toBe('completed');
    expect(job?.attempts).toBe(2);
    const runs = await t.ctx.db
      .selectFrom('job_runs')
      .select(['worker_id', 'outcome'])
      .where('job_id', '=', jobId)
      .orderBy('attempt')
      .execute();
    expect(runs).toEqual([
      { worker_id: `batch:${killed.batchJobId}`, outcome: 'superseded' },
      { worker_id: `batch:${again.batchJobId}`, outcome: 'completed' },
    ]);
  }, 120_000);

  it('cancels: a queued job terminates its Batch job and its container does nothing; a running one stops', async () => {
    const queued = (await submit(t.app, user.cookie, tinyJob(4))).json().job_id as string;
    const c1 = await t.app.inject({
      method: 'POST',
      url: `/api/fea/cancel/${queued}`,
      headers: { cookie: user.cookie },
    });
    expect(c1.statusCode, c1.body).toBe(200);
    expect((await t.ctx.jobs.get(queued))?.status).toBe('cancelled');
    const late = await runWorker(queued);
    expect(late.code).toBe(0);
    expect(late.out).toContain(`batch-run ${queued}: skipped`);

    const running = (await submit(t.app, user.cookie, tinyJob(5), 30)).json().job_id as string;
    const worker = runWorker(running);
    await pollUntil(async () => (await t.ctx.jobs.get(running))?.status === 'running', 60_000);
    // The engine would run for 30 s; cancelled, the worker stops within a lease beat or two (counted
    // from the cancel, not from the spawn, whose start-up depends on the machine's load).
    const cancelledAt = Date.now();
    const c2 = await t.app.inject({
      method: 'POST',
      url: `/api/fea/cancel/${running}`,
      headers: { cookie: user.cookie },
    });
    expect(c2.statusCode, c2.body).toBe(200);
    const end = await worker;
    expect(end.code, end.out).toBe(0);
    expect(Date.now() - cancelledAt).toBeLessThan(20_000);
    expect((await t.ctx.jobs.get(running))?.status).toBe('cancelled');
  }, 120_000);

  it('sync-usage charges the time Batch measured beyond the worker’s once', async () => {
    const user = await signedInUser(t);
    await creditTokens(t.ctx, user.userId, 5);
    const res = await submit(t.app, user.cookie, tinyJob(6));
    const jobId = res.json().job_id as string;
    const run = await runWorker(jobId);
    expect(run.code, run.out).toBe(0);
    const job = await t.ctx.jobs.get(jobId);
    // moto's docker-less Batch measures no run time; stand in a Batch that measured 10 minutes more.
    const describe = async (ids: string[]) =>
      ids.map((id) => ({
        jobId: id,
        startedAt: 1_000_000,
        stoppedAt: 1_000_000 + ((job?.compute_seconds ?? 0) + 600) * 1000,
      })) as never;
    const deps = { db: t.ctx.db, metering: t.ctx.compute.metering, describe };
    const first = await syncBatchUsage(deps, user.userId);
    expect(first.jobs_reconciled).toBe(1);
    expect(first.hours_added).toBeCloseTo(600 / 3600, 4);
    expect(await syncBatchUsage(deps, user.userId)).toEqual({ hours_added: 0, jobs_reconciled: 0 });
  }, 120_000);
});
