import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil, tinyJob, writeTestPlans } from '../support/compute.ts';
import { jsonHeaders, ServerProcess } from '../support/server-process.ts';
import { TcpProxy } from '../support/tcp-proxy.ts';
import { DataDirView } from './fault-ledger.ts';

const STORAGE_ERROR = /could not read or store its files\. Nothing was charged/;

/** The embedded server with test hooks (a job can be told to sleep) and roomy balances. */
function storageServer(env: Record<string, string>): ServerProcess {
  return new ServerProcess({
    ENGINE_TEST_HOOKS: '1',
    WELCOME_GRANT_TOKENS: '100',
    JOB_MIN_ESTIMATE_SECONDS: '1',
    PLANS_FILE: writeTestPlans(mkdtempSync(join(tmpdir(), 'fieldline-plans-'))),
    JOB_SLOTS: '1',
    ...env,
  });
}

async function submitJob(s: ServerProcess, cookie: string, sleepSeconds: number) {
  return fetch(`${s.base}/api/fea/submit`, {
    method: 'POST',
    headers: { ...jsonHeaders(cookie), 'x-test-sleep-seconds': String(sleepSeconds) },
    body: JSON.stringify(tinyJob()),
  });
}

async function submitted(s: ServerProcess, cookie: string, sleepSeconds: number): Promise<string> {
  const res = await submitJob(s, cookie, sleepSeconds);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { job_id: string }).job_id;
}

type Status = { status: string; progress: number; error?: string; results?: unknown };
const status = async (s: ServerProcess, cookie: string, id: string) =>
  (await (await fetch(`${s.base}/api/fea/status/${id}`, { headers: { cookie } })).json()) as Status;
const running = (s: ServerProcess, cookie: string, id: string) =>
  pollUntil(async () => {
    const st = await status(s, cookie, id);
    return st.status === 'running' && st.progress > 0;
  }, 120_000);
const finished = (s: ServerProcess, cookie: string, id: string) =>
  pollUntil(async () => {
    const st = await status(s, cookie, id);
    return ['completed', 'failed', 'cancelled'].includes(st.status) ? st : null;
  }, 120_000);
const binary = (s: ServerProcess, cookie: string, id: string) =>
  fetch(`${s.base}/api/fea/results/${id}/binary`, { headers: { cookie } });

/** Writes until the filesystem refuses with ENOSPC; returns the filler's path. */
function fill(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  return file;
}

/** A small tmpfs: a real filesystem that fills up. Mounting needs root (as in this project's CI image). */
function mountTmpfs(dir: string, size: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
}

/** Whether this process may mount a tmpfs (tried once on a scratch directory, then undone). */
function tmpfsAllowed(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'fieldline-mount-probe-'));
  try {
    mountTmpfs(probe, '64k');
    execFileSync('umount', [probe]);
    return true;
  } catch (err) {
    console.log(`faults (disk full): skipped, a tmpfs cannot be mounted here: ${String(err).slice(0, 200)}`);
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const mountRoot = join(tmpdir(), `fieldline-full-${process.pid}`);
const storageDir = join(mountRoot, 'objects');
const workDir = join(mountRoot, 'work');
// Once per npm test (its server runs on SQLite in either step): in the SQLite step.
const canMount = !process.env.TEST_DATABASE_URL && tmpfsAllowed();

describe.skipIf(!canMount)('faults: the disk fills up while a job writes its results', () => {
  const server = storageServer({ STORAGE_DIR: storageDir, WORK_DIR: workDir });
  const view = new DataDirView(server.dataDir);
  beforeAll(() => {
    mountTmpfs(storageDir, '4m');
    mountTmpfs(workDir, '4m');
  });
  afterAll(async () => {
    await server.stop();
    for (const d of [storageDir, workDir])
      try {
        execFileSync('umount', ['-l', d], { stdio: 'ignore' });
      } catch {}
    rmSync(mountRoot, { recursive: true, force: true });
  });

  it('fails the job with a clear message, charges nothing, serves nothing half-written, then recovers', async () => {
    await server.start();
    const cookie = await server.register();
    const counts = { submitted: 0, completed: 0, failed: 0 };

    // 1. Object storage full when the results are stored (the engine's own files fit in WORK_DIR).
    const a = await submitted(server, cookie, 2);
    await running(server, cookie, a);
    const storageFiller = fill(storageDir);
    const endA = await finished(server, cookie, a);
    // 2. WORK_DIR full while the engine writes its results.
    rmSync(storageFiller);
    const b = await submitted(server, cookie, 2);
    await running(server, cookie, b);
    const workFiller = fill(workDir);
    const endB = await finished(server, cookie, b);
    rmSync(workFiller);
    // 3. Space again: the next job completes and is served.
    const c = await submitted(server, cookie, 0);
    const endC = await finished(server, cookie, c);
    counts.submitted = 3;
    for (const e of [endA, endB, endC]) e.status === 'completed' ? counts.completed++ : counts.failed++;

    const jobs = new Map((await view.jobs([a, b, c])).map((j) => [j.id, j]));
    const charges = await view.charges([a, b, c]);
    const leftovers = (await view.orphanObjects(storageDir)).concat(view.workFiles(workDir));
    console.log(
      `faults (disk full): jobs submitted ${counts.submitted} / completed ${counts.completed} / failed ${counts.failed}; ` +
        `storage full → ${jobs.get(a)?.error_code}: ${jobs.get(a)?.error_message}; ` +
        `WORK_DIR full → ${jobs.get(b)?.error_code}: ${jobs.get(b)?.error_message}; leftovers ${leftovers.length}`,
    );
    expect(endA.status).toBe('failed');
    expect(endA.error).toMatch(STORAGE_ERROR);
    expect(endB.status).toBe('failed');
    expect(jobs.get(b)?.error_code).toBe('disk_full');
    expect(endB.error).toMatch(/disk is full.*Nothing was charged/);
    expect(endC.status, endC.error).toBe('completed');
    for (const id of [a, b]) {
      expect(charges.get(id) ?? 0, `charges of ${id}`).toBeLessThanOrEqual(1);
      expect(jobs.get(id)?.cost_tokens ?? 0, `cost of ${id}`).toBe(0);
      expect((await binary(server, cookie, id)).status, `results of ${id}`).toBe(404);
    }
    expect((await binary(server, cookie, c)).status).toBe(200);
    // Nothing half-written: no temporaries, no result objects of the failed jobs, an empty WORK_DIR.
    expect(leftovers).toEqual([]);
    expect(view.workFiles(join(storageDir, 'jobs', a, 'out'))).toEqual([]);
    expect(view.workFiles(join(storageDir, 'jobs', b, 'out'))).toEqual([]);
  }, 300_000);
});

// In the PostgreSQL + Redis + S3 step of npm test (scripts/with-moto.sh provides the emulator).
const s3Endpoint = process.env.TEST_S3_ENDPOINT;

describe.skipIf(!s3Endpoint)('faults: S3 unreachable for a while', () => {
  const target = new URL(s3Endpoint ?? 'http://127.0.0.1:1');
  const proxy = new TcpProxy(target.hostname, Number(target.port));
  const bucket = `fieldline-outage-${Date.now()}`;
  const creds = { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_REGION: 'us-east-1' };
  let server: ServerProcess;
  afterAll(async () => {
    await server?.stop();
    await proxy.down();
  });

  it('fails the job that could not store its results with a clear message, answers 503 meanwhile, then recovers', async () => {
    await proxy.up();
    const s3 = new S3Client({
      region: 'us-east-1',
      endpoint: s3Endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' },
    });
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    server = storageServer({ ...creds, STORAGE_BACKEND: 's3', S3_BUCKET: bucket, S3_ENDPOINT: proxy.url });
    await server.start();
    const cookie = await server.register();

    const before = await submitted(server, cookie, 0);
    expect((await finished(server, cookie, before)).status).toBe('completed');
    const victim = await submitted(server, cookie, 3);
    await running(server, cookie, victim);

    await proxy.down();
    const t0 = Date.now();
    const endVictim = await finished(server, cookie, victim);
    // Meanwhile: what is stored cannot be read and nothing new can be stored — a 503 that says so.
    const duringResults = await binary(server, cookie, before);
    const duringSubmit = await submitJob(server, cookie, 0);
    const duringSubmitBody = (await duringSubmit.json()) as { error?: string; message?: string };
    const rowsDuring = (await new DataDirView(server.dataDir).allJobIds()).length;
    await new Promise((r) => setTimeout(r, Math.max(0, 8000 - (Date.now() - t0))));
    await proxy.up();
    const downSeconds = (Date.now() - t0) / 1000;

    const after = await submitted(server, cookie, 0);
    const endAfter = await finished(server, cookie, after);
    console.log(
      `faults (S3 outage of ${downSeconds.toFixed(1)} s): jobs submitted 3 / completed ${[endVictim, endAfter].filter((e) => e.status === 'completed').length + 1} / failed ${endVictim.status === 'failed' ? 1 : 0}; ` +
        `victim → ${endVictim.status}: ${endVictim.error}; results during → ${duringResults.status}; submit during → ${duringSubmit.status} ${duringSubmitBody.message}`,
    );
    expect(endVictim.status).toBe('failed');
    expect(endVictim.error).toMatch(STORAGE_ERROR);
    expect((await binary(server, cookie, victim)).status).toBe(404);
    expect(duringResults.status).toBe(503);
    expect(duringSubmit.status).toBe(503);
    expect(duringSubmitBody.error).toBe('service_unavailable');
    expect(rowsDuring).toBe(2); // the refused submit left no job behind
    expect(endAfter.status, endAfter.error).toBe('completed');
    expect((await binary(server, cookie, after)).status).toBe(200);
    expect((await binary(server, cookie, before)).status).toBe(200);
  }, 300_000);
});
