// Queue benchmark (issue 8): jobs per minute of the tiny engine job with 1, 2 and 4 workers — BullMQ
// `fieldline worker` processes on Redis + PostgreSQL, and the embedded queue with as many slots as the
// peer measured in the same run — and the latency of GET /api/fea/status under 200 concurrent pollers.
// Usage: bash bench/queue/run.sh   (starts PostgreSQL and Redis; writes bench/queue/out/results.json)
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import pg from 'pg';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { redisOptions } from '../../server/src/jobs/redis-options.ts';
import { creditTokens, tinyJob, writeTestPlans } from '../../server/test/support/compute.ts';
import { registerTestUser } from '../../server/test/support/users.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'bench', 'queue', 'out');
const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
if (!pgUrl || !redisUrl)
  throw new Error('run through bench/queue/run.sh (needs TEST_DATABASE_URL and TEST_REDIS_URL)');
const JOBS = Number(process.env.BENCH_JOBS ?? 24);
const WORKER_COUNTS = [1, 2, 4];
// One user submits every job at once: a token plan that allows that many concurrent simulations.
const PLANS_FILE = writeTestPlans(mkdtempSync(join(tmpdir(), 'fieldline-bench-plans-')), {
  token: {
    name: 'Bench',
    description: 'benchmark plan',
    price_monthly: 0,
    billing_cycle: 'pay_as_you_go',
    compute_hours_per_month: 0,
    token_cost: 1,
    stripe_price_id: null,
    features: {
      priority_queue: false,
      support_level: 'none',
      max_file_size_mb: 100,
      concurrent_simulations: 1000,
    },
  },
});

async function freshDatabase(): Promise<string> {
  const name = `fl_bench_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgUrl as string);
  url.pathname = `/${name}`;
  return url.toString();
}

async function app(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldline-bench-'));
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: await freshDatabase(),
    LOG_LEVEL: 'warn',
    PLANS_FILE,
    ...env,
  });
  const built = await buildApp(config, { logger: false });
  await built.app.ready();
  return { ...built, dataDir, config };
}

type Built = Awaited<ReturnType<typeof app>>;

async function waitAll(b: Built, ids: string[]): Promise<void> {
  for (;;) {
    const open = await b.ctx.db
      .selectFrom('jobs')
      .select('id')
      .where('id', 'in', ids)
      .where('status', 'in', ['queued', 'running'])
      .execute();
    if (open.length === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const failed = await b.ctx.db
    .selectFrom('jobs')
    .select(['id', 'error_message'])
    .where('id', 'in', ids)
    .where('status', '!=', 'completed')
    .execute();
  if (failed.length > 0) throw new Error(`jobs did not complete: ${JSON.stringify(failed)}`);
}

/** Submits JOBS tiny jobs as one user and returns jobs/minute from the first submit to the last completion. */
async function throughput(
  b: Built,
): Promise<{ jobsPerMinute: number; seconds: number; meanJobSeconds: number }> {
  const user = await registerTestUser(b.app);
  await creditTokens(b.ctx, user.id, 100);
  const t0 = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < JOBS; i++) {
    const res = await b.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: tinyJob(1 + i),
      headers: { cookie: user.cookie },
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    ids.push(res.json().job_id);
  }
  await waitAll(b, ids);
  const seconds = (performance.now() - t0) / 1000;
  const rows = await b.ctx.db.selectFrom('jobs').select('compute_seconds').where('id', 'in', ids).execute();
  const meanJobSeconds = rows.reduce((s, r) => s + (r.compute_seconds ?? 0), 0) / rows.length;
  return { jobsPerMinute: (JOBS / seconds) * 60, seconds, meanJobSeconds };
}

function startWorkers(b: Built, n: number): ChildProcess[] {
  return Array.from({ length: n }, () =>
    spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'worker'], {
      cwd: join(ROOT, 'server'),
      env: {
        ...process.env,
        DATA_DIR: b.dataDir,
        DATABASE_URL: b.config.databaseUrl,
        REDIS_URL: redisUrl,
        JOB_SLOTS: '1',
        LOG_LEVEL: 'warn',
        WELCOME_GRANT_TOKENS: '0',
        PLANS_FILE,
      },
      stdio: 'ignore',
    }),
  );
}

async function stopWorkers(procs: ChildProcess[]): Promise<void> {
  await Promise.all(
    procs.map(
      (p) =>
        new Promise((r) => {
          p.once('exit', r);
          p.kill('SIGTERM');
        }),
    ),
  );
}

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  jobs: JOBS,
  throughput: [] as unknown[],
};
mkdirSync(OUT, { recursive: true });

for (const n of WORKER_COUNTS) {
  const redis = new Redis(redisOptions(redisUrl));
  await redis.flushdb();
  redis.disconnect();
  const distributed = await app({ REDIS_URL: redisUrl, WELCOME_GRANT_TOKENS: '0' });
  const procs = startWorkers(distributed, n);
  while ((await distributed.ctx.compute.registry.live('bullmq')).workers < n)
    await new Promise((r) => setTimeout(r, 200));
  const bull = await throughput(distributed);
  await stopWorkers(procs);
  await distributed.app.close();
  rmSync(distributed.dataDir, { recursive: true, force: true });

  const embedded = await app({ JOB_SLOTS: String(n), WELCOME_GRANT_TOKENS: '0' });
  const emb = await throughput(embedded);
  await embedded.app.close();
  rmSync(embedded.dataDir, { recursive: true, force: true });

  const row = {
    workers: n,
    bullmq_jobs_per_minute: Number(bull.jobsPerMinute.toFixed(1)),
    embedded_jobs_per_minute: Number(emb.jobsPerMinute.toFixed(1)),
    ratio_bullmq_to_embedded: Number((bull.jobsPerMinute / emb.jobsPerMinute).toFixed(2)),
    bullmq_mean_job_seconds: Number(bull.meanJobSeconds.toFixed(2)),
    embedded_mean_job_seconds: Number(emb.meanJobSeconds.toFixed(2)),
  };
  (results.throughput as unknown[]).push(row);
  console.log(row);
}

// Status polling: 200 connections on loopback against a running and a completed job of one user.
{
  const b = await app({ JOB_SLOTS: '1', ENGINE_TEST_HOOKS: '1', WELCOME_GRANT_TOKENS: '0' });
  await b.app.listen({ host: '127.0.0.1', port: 0 });
  const address = b.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const user = await registerTestUser(b.app);
  await creditTokens(b.ctx, user.id, 100);
  const done = (
    await b.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: tinyJob(),
      headers: { cookie: user.cookie },
    })
  ).json().job_id;
  await waitAll(b, [done]);
  const running = (
    await b.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: tinyJob(),
      headers: { cookie: user.cookie, 'x-test-sleep-seconds': '120' },
    })
  ).json().job_id;
  const poll = async (jobId: string) => {
    const r = await autocannon({
      url: `http://127.0.0.1:${port}/api/fea/status/${jobId}`,
      connections: 200,
      duration: 10,
      headers: { cookie: user.cookie },
    });
    return {
      requests_per_second: r.requests.average,
      p50_ms: r.latency.p50,
      p99_ms: r.latency.p99,
      non_2xx: r.non2xx,
      errors: r.errors,
    };
  };
  const whileRunning = await poll(running);
  const completed = await poll(done);
  results.status_polls = {
    connections: 200,
    duration_s: 10,
    running_job: whileRunning,
    completed_job: completed,
  };
  console.log(results.status_polls);
  await b.app.inject({ method: 'POST', url: `/api/fea/cancel/${running}`, headers: { cookie: user.cookie } });
  await b.app.close();
  rmSync(b.dataDir, { recursive: true, force: true });
}

writeFileSync(join(OUT, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(`wrote ${join(OUT, 'results.json')}`);
process.exit(0);
