import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from '../../server/test/support/box-mesh.ts';
import { MOTO_REGION, setUpMotoBatch } from '../../server/test/support/moto-batch.ts';
import { type BatchRun, startBatchStandIn } from '../support/batch-stand-in.ts';
import { launchBrowser } from '../support/browser.ts';
import { openEnvironment, signUp } from '../support/environment-page.ts';
import { type RunningServer, startServer } from '../support/server.ts';

/**
 * Issue 23's user path with COMPUTE_BACKEND=aws-batch against moto (scripts/test.sh runs the e2e suite
 * under scripts/with-moto.sh): a job submitted from the environment goes to S3 and Batch, completes,
 * the dashboard's debug panel lists it with its Batch job ARN, Test Job describes it, and Sync from AWS
 * reconciles it once.
 */
const endpoint = process.env.TEST_S3_ENDPOINT;
if (process.env.CI && !endpoint)
  throw new Error('the AWS Batch e2e needs moto: run it under scripts/with-moto.sh');

let server: RunningServer;
let browser: Browser;
let standIn: ReturnType<typeof startBatchStandIn>;
const queues = { standard: '', priority: '' };

describe.skipIf(!endpoint)('COMPUTE_BACKEND=aws-batch from the browser (moto Batch + S3)', () => {
  beforeAll(async () => {
    const aws = { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_REGION: MOTO_REGION };
    Object.assign(process.env, aws);
    const base = endpoint as string;
    const bucket = `fieldline-e2e-${Date.now()}`;
    await new S3Client({ region: MOTO_REGION, endpoint: base, forcePathStyle: true }).send(
      new CreateBucketCommand({ Bucket: bucket }),
    );
    const moto = await setUpMotoBatch(base);
    Object.assign(queues, { standard: moto.standard, priority: moto.priority });
    const queueNames = [moto.standard, moto.priority];
    const env = {
      ...aws,
      COMPUTE_BACKEND: 'aws-batch',
      BATCH_JOB_QUEUE: moto.standard,
      BATCH_PRIORITY_JOB_QUEUE: moto.priority,
      BATCH_JOB_DEFINITION: moto.definition ?? '',
      BATCH_POLL_SECONDS: '1',
      STORAGE_BACKEND: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: base,
    };
    // The worker containers' env is the server's; DATA_DIR is known once the server has started.
    const workerEnv: Record<string, string> = { ...env, LOG_LEVEL: 'info' };
    standIn = startBatchStandIn({ endpoint: base, region: MOTO_REGION, queues: queueNames, env: workerEnv });
    workerEnv.BATCH_ENDPOINT = await standIn.endpoint;
    server = await startServer({ ...env, BATCH_ENDPOINT: workerEnv.BATCH_ENDPOINT });
    workerEnv.DATA_DIR = server.dataDir;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await standIn?.stop();
    await browser?.close();
    await server?.stop();
  });

  it('runs a job from the environment on Batch; the debug panel shows its ARN; Sync from AWS reconciles it once', async () => {
    const page: Page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    await openEnvironment(page, server.origin);
    await signUp(page);

    // A 5 mm × 5 mm parallel-plate capacitor with a 1 mm gap, 0 V and 3 V on the plates.
    const gap = 0.001;
    const mesh = boxMesh([0.005, 0.005, gap], [2, 2, 2]);
    const file = join(mkdtempSync(join(tmpdir(), 'fieldline-batch-')), 'capacitor.json');
    writeFileSync(file, JSON.stringify({ ...mesh, units: 'm' }));
    await page.setInputFiles('[data-testid=file-input]', file);
    await page.waitForSelector('[data-testid=config-form]');
    await page.click('[data-testid=add-dirichlet-group]');
    await page.click('[data-testid=add-dirichlet-group]');
    await page.fill('[data-testid=dirichlet-group-0-faces]', facesOnPlane(mesh, 2, 0).join(', '));
    await page.fill('[data-testid=dirichlet-group-1-faces]', facesOnPlane(mesh, 2, gap).join(', '));
    await page.fill('[data-testid=dirichlet-group-1-voltage]', '3');
    const submitted = page.waitForResponse((r) => r.url().endsWith('/api/fea/submit'));
    await page.click('[data-testid=run-analysis]');
    const jobId = ((await (await submitted).json()) as { job_id: string }).job_id;
    await page.waitForSelector('[data-testid=quantity-capacitance_F]', { timeout: 120_000 });
    expect(await page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');

    // The job ran in a Batch job's container (the stand-in ran its command) and finished exactly once.
    // moto's docker-less Batch marks a job SUCCEEDED at once, so a job still queued 5 s later looks
    // abandoned and the server submits it again; that container finds the job done and skips it.
    const ran = standIn.runs.filter((r: BatchRun) => r.jobId === jobId);
    const finished = ran.filter((r) => r.out.includes(`batch-run ${jobId}: finished`));
    expect(finished.length, ran.map((r) => r.out).join('\n')).toBe(1);
    expect(finished[0]?.code, finished[0]?.out).toBe(0);

    // Dashboard → debug panel: the recent job is the Batch job, by its ARN.
    await page.goto(`${server.origin}/#/dashboard`);
    await page.getByText('Computational Usage').waitFor();
    await page.getByRole('button', { name: 'Debug AWS Connection' }).click();
    const result = page.getByTestId('debug-result');
    await result.waitFor();
    // (the raw answer sits in a closed <details>; textContent reads it all the same)
    await expect.poll(() => result.locator('pre').textContent()).toContain('"backend": "aws-batch"');
    expect(await result.textContent()).toContain(`Queue name${queues.standard}`);

    await page.getByRole('button', { name: 'List Recent Jobs' }).click();
    const task = page.getByTestId('debug-task').first();
    await task.waitFor();
    expect(await task.textContent()).toContain('STOPPED');
    await task.getByRole('button', { name: 'Test This Job' }).click();
    const listed = await page.getByLabel('Test Specific Job').inputValue();
    // The panel lists the job's latest Batch job; Test Job describes it as this job's.
    expect(await task.textContent()).toContain(listed);
    await page.getByRole('button', { name: 'Test Job', exact: true }).click();
    await expect.poll(() => result.textContent()).toContain(`Job ${listed}`);
    const raw = (await result.locator('pre').textContent()) ?? '';
    expect(raw).toContain(`"jobId": "${jobId}"`);
    expect(raw).toMatch(new RegExp(`arn:aws:batch:${MOTO_REGION}:\\d+:job/${listed}`));
    expect(raw).toContain('SUCCEEDED');

    // Sync from AWS: Batch measured the container's whole run (start-up included), more than the
    // worker's claim-to-finish time; the first sync charges the difference, the second adds nothing.
    const sync = async () => {
      const reply = page.waitForResponse((r) => r.url().endsWith('/api/user/sync-usage'));
      await page.getByRole('button', { name: 'Sync from AWS' }).click();
      return (await (await reply).json()) as {
        success: boolean;
        hours_added: number;
        jobs_reconciled: number;
      };
    };
    const info = await page.evaluate(
      async (id) => (await fetch(`/api/fea/results/${id}/info`)).json(),
      jobId,
    );
    const jobComputeSeconds = (info as { compute_seconds: number }).compute_seconds;
    const first = await sync();
    const container = finished[0] as BatchRun;
    const beyond = (container.stoppedAt - container.startedAt) / 1000 - jobComputeSeconds;
    console.log(
      `Batch measured ${(beyond + jobComputeSeconds).toFixed(1)} s, the worker ${jobComputeSeconds} s`,
    );
    expect(first).toMatchObject({ success: true, jobs_reconciled: 1 });
    expect(first.hours_added).toBeCloseTo(beyond / 3600, 4);
    expect(await sync()).toMatchObject({ success: true, jobs_reconciled: 0, hours_added: 0 });
    await page.context().close();
  });
});
