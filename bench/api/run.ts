// API polling benchmark (issue 20): autocannon at 200 and 1,000 connections against the app on its
// embedded default (SQLite, embedded queue, local encrypted storage), served by its own process:
//   - GET /api/fea/status/{id} of a running job (the engine sleeps, its lease heartbeat writes meanwhile),
//   - GET /api/fea/status/{id} of a completed job (full body as a browser asks: Accept-Encoding gzip, br),
//     and the same with If-None-Match (a re-poll of an unchanged job),
//   - GET /api/user/subscription-info (the usage panel's poll),
//   - GET /api/plans (no session, no database: the ceiling).
// Usage: npx tsx bench/api/run.ts   (env: BENCH_DURATION=10, BENCH_CONNECTIONS=200,1000,
//        BENCH_CELLS=8 (box of n×n×n cells, 6 tetrahedra each; 26 ≈ 105k tetrahedra), BENCH_LABEL)
// Writes bench/api/out/<label>.json and prints a Markdown table.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get as httpGet, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import pg from 'pg';
import { boxMesh, facesOnPlane } from '../../server/test/support/box-mesh.ts';
import { type OpenLoopResult, openLoop } from './open-loop.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'bench', 'api', 'out');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '200,1000').split(',').map(Number);
const CELLS = Number(process.env.BENCH_CELLS ?? 8);
/** The ~100k-tet completed job (26 → 105,456 tetrahedra; its reply is 8.3 MB, 1.4 MB brotli), open loop only. */
const BIG_CELLS = Number(process.env.BENCH_BIG_CELLS ?? 26);
const BIG_RATE = Number(process.env.BENCH_BIG_RATE ?? 10);
const PG_CELLS = Number(process.env.BENCH_PG_CELLS ?? 8);
/** The running poll's goal rate (issue 20): offered at this rate over 200 connections, open loop. */
const GOAL_RATE = Number(process.env.BENCH_RATE ?? 5000);
/** A completed job is polled once per open environment; 200 environments polling every 2 s is 100/s. */
const COMPLETED_RATE = Number(process.env.BENCH_COMPLETED_RATE ?? 100);
/** A user's submits while 1,000 connections poll: this many, offered at BENCH_SUBMIT_RATE per second. */
const SUBMITS = Number(process.env.BENCH_SUBMITS ?? 200);
const SUBMIT_RATE = Number(process.env.BENCH_SUBMIT_RATE ?? 10);
/** The submits start once every poller is connected, or after this many seconds at most. */
const SUBMIT_SETTLE_MAX_S = 8;
const PAUSE_MS = 2_000;
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? '';
const LABEL = process.env.BENCH_LABEL ?? 'latest';
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
/** Which setups run: `sqlite` (embedded default) and/or `postgres` (two API processes). */
const SETUPS = (process.env.BENCH_SETUPS ?? 'sqlite,postgres').split(',');
/** PostgreSQL's stats settle within this after a row (an idle backend reports its counts after 10 s). */
const PG_STATS_SETTLE_MS = 11_000;

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => ok(port));
    });
  });
}

// @ts-expect-error plain ESM helper without types
const {
  ensureServerBuilt,
  SERVER_ENTRY: BUILT_ENTRY,
  SERVER_ENV,
  SERVER_NODE_ARGS,
} = await import('../../scripts/build-server.mjs');
/** BENCH_SERVER_ENTRY: another build of the server (an A/B of two commits); default this checkout's. */
const SERVER_ENTRY = process.env.BENCH_SERVER_ENTRY ? resolve(process.env.BENCH_SERVER_ENTRY) : BUILT_ENTRY;
if (!process.env.BENCH_SERVER_ENTRY) await ensureServerBuilt();
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

interface Server {
  proc: ChildProcess;
  base: string;
}
const servers: Server[] = [];
const dataDirs: string[] = [];

/** One `fieldline serve` (the compiled server, as `npm start` runs it) on a free loopback port. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  // As `npm start` runs it (SERVER_NODE_ARGS: its GC flags), plus BENCH_NODE_ARGS.
  const proc = spawn(process.execPath, [...SERVER_NODE_ARGS, ...NODE_ARGS, SERVER_ENTRY, 'serve'], {
    cwd: ROOT,
    env: {
      ...SERVER_ENV,
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JOB_SLOTS: '2',
      ENGINE_TEST_HOOKS: '1',
      WELCOME_GRANT_TOKENS: '1000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const server = { proc, base: `http://127.0.0.1:${port}` };
  servers.push(server);
  await waitUp(server.base);
  return server;
}
const stopServers = () => {
  for (const s of servers) if (s.proc.exitCode === null) s.proc.kill('SIGTERM');
};
process.on('exit', stopServers);

async function waitUp(base: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/api/plans`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not start');
}

const jsonHeaders = (cookie?: string) => ({
  'content-type': 'application/json',
  'sec-fetch-site': 'same-origin',
  ...(cookie ? { cookie } : {}),
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let users = 0;
async function register(base: string): Promise<string> {
  const tag = `${Date.now().toString(36)}${(users++).toString(36)}`;
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: jsonHeaders(),
    body: JSON.stringify({
      name: 'Bench User',
      email: `bench.${tag}@analytical-engines.com`,
      username: `bench_${tag}`,
      password: 'correct horse battery staple',
      acceptedTerms: true,
    }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
  if (!cookie) throw new Error('no session cookie');
  return cookie;
}

function job(cells: number) {
  const mesh = boxMesh([1, 1, 1], [cells, cells, cells]);
  return {
    tetrahedra: mesh.tetrahedra.length,
    payload: {
      mesh_data: mesh,
      config: {
        analysisType: 'em',
        frequency: 0,
        dirichletFaceConditions: [
          { faces: facesOnPlane(mesh, 2, 0), voltage: 0 },
          { faces: facesOnPlane(mesh, 2, 1), voltage: 1 },
        ],
      },
    },
  };
}

async function submit(base: string, cookie: string, body: string, sleepSeconds?: number): Promise<string> {
  const res = await fetch(`${base}/api/fea/submit`, {
    method: 'POST',
    headers: {
      ...jsonHeaders(cookie),
      ...(sleepSeconds ? { 'x-test-sleep-seconds': String(sleepSeconds) } : {}),
    },
    body,
  });
  if (!res.ok) throw new Error(`submit: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { job_id: string }).job_id;
}

async function waitStatus(
  base: string,
  cookie: string,
  id: string,
  want: string[],
  everyMs = 500,
  limitMs = 900_000,
): Promise<Response> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${base}/api/fea/status/${id}`, { headers: { cookie } });
    const body = (await res.clone().json()) as { status: string; error?: string };
    if (want.includes(body.status)) return res;
    if (!['queued', 'running'].includes(body.status)) throw new Error(`job ${id}: ${JSON.stringify(body)}`);
    await sleep(everyMs);
  }
  throw new Error(`job ${id} did not reach ${want}`);
}

async function cancel(base: string, cookie: string, id: string): Promise<void> {
  const res = await fetch(`${base}/api/fea/cancel/${id}`, {
    method: 'POST',
    headers: { cookie, 'sec-fetch-site': 'same-origin' },
  });
  if (!res.ok) throw new Error(`cancel: ${res.status} ${await res.text()}`);
}

/** CPU seconds the servers have used (utime + stime from /proc; Linux only, else NaN). */
function cpuSeconds(list: Server[]): number {
  let total = 0;
  for (const s of list) {
    try {
      const stat = readFileSync(`/proc/${s.proc.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks (USER_HZ = 100)
    } catch {
      return Number.NaN;
    }
  }
  return total;
}

interface Row {
  setup: string;
  target: string;
  connections: number;
  /**
   * Open loop: requests offered at this rate whatever the latency (Poisson arrivals, open-loop.ts; with
   * `burst`, autocannon's overallRate, which sends each second's requests at once); else closed loop.
   */
  offered_rate: number | null;
  /** The open-loop client's own event-loop delay (p99 / max ms): its share of the latencies. */
  client_delay_ms?: { p99: number; max: number };
  requests_per_second: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
  mb_per_second: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Server CPU time per answered request: the cost, whatever else the machine runs. */
  server_cpu_us_per_request: number;
  load_average_1m: number;
  /**
   * PostgreSQL rows of the running poll: index + sequential scans of the `jobs` table during the row
   * (pg_stat_user_tables), i.e. every job-row read or write of both API processes: the job's own
   * heartbeats, the embedded queues' claim polls, and the other process's status re-reads.
   */
  jobs_table_scans?: number;
  /** The submit-under-load row: a user's submits while the pollers run. */
  submits?: {
    count: number;
    p50_ms: number;
    p99_ms: number;
    max_ms: number;
    /** Offered submits per second (Poisson). */
    rate: number;
    p90_ms: number;
    statuses: Record<string, number>;
    /** Poller connections established (server side) when the submits began, and how long that took. */
    pollers_connected: number;
    settle_s: number;
    /** The submitting thread's own event-loop delay (its share of the latencies). */
    client_delay_ms: { p99: number; max: number };
  };
}

interface Target {
  setup: string;
  target: string;
  list: Server[];
  path: string;
  connections: number;
  headers: Record<string, string>;
  rate?: number;
  /** With `rate`: autocannon's overallRate (each second's requests leave together) instead of Poisson arrivals. */
  burst?: boolean;
}

const skip = (target: string) => ONLY.length > 0 && !ONLY.some((o) => target.includes(o));

function cannon(t: Target) {
  return autocannon({
    url: t.list.map((s) => `${s.base}${t.path}`),
    connections: t.connections,
    duration: DURATION,
    headers: t.headers,
    timeout: 10,
    ...(t.rate ? { overallRate: t.rate } : {}),
  });
}

function openLoopRow(t: Target, r: OpenLoopResult, cpu: number): Row {
  return {
    setup: t.setup,
    target: t.target,
    connections: t.connections,
    offered_rate: t.rate ?? null,
    requests_per_second: r.requestsPerSecond,
    p50_ms: r.p50,
    p90_ms: r.p90,
    p99_ms: r.p99,
    max_ms: r.max,
    mb_per_second: Number((r.bytes / DURATION / 1e6).toFixed(1)),
    statuses: r.statuses,
    errors: r.errors,
    timeouts: r.timeouts,
    server_cpu_us_per_request: Math.round((cpu * 1e6) / Math.max(1, r.completed)),
    load_average_1m: Number(loadavg()[0]?.toFixed(2)),
    client_delay_ms: { p99: r.clientDelayP99, max: r.clientDelayMax },
  };
}

function rowOf(t: Target, r: autocannon.Result, cpu: number): Row {
  const statuses: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.statusCodeStats ?? {})) statuses[k] = (v as { count: number }).count;
  return {
    setup: t.setup,
    target: t.target,
    connections: t.connections,
    offered_rate: t.rate ?? null,
    requests_per_second: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p90_ms: r.latency.p90,
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
    mb_per_second: Number((r.throughput.average / 1e6).toFixed(1)),
    statuses,
    errors: r.errors,
    timeouts: r.timeouts,
    server_cpu_us_per_request: Math.round((cpu * 1e6) / Math.max(1, r.requests.total)),
    load_average_1m: Number(loadavg()[0]?.toFixed(2)),
  };
}

/** Scans of the jobs table so far (PostgreSQL setup only; null elsewhere). */
let jobsScans: (() => Promise<number>) | null = null;

async function pgJobsScans(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query(
      "select coalesce(idx_scan, 0) + coalesce(seq_scan, 0) as n from pg_stat_user_tables where relname = 'jobs'",
    );
    return Number(res.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

const rows: Row[] = [];
async function load(t: Target): Promise<void> {
  if (skip(t.target)) return;
  await sleep(PAUSE_MS); // the previous row's connections close and its backlog drains
  const counted = jobsScans && t.target.startsWith('status: running job') ? jobsScans : null;
  if (counted) await sleep(PG_STATS_SETTLE_MS);
  const scans0 = counted ? await counted() : 0;
  const cpu0 = cpuSeconds(t.list);
  let row: Row;
  if (t.rate && !t.burst) {
    const r = await openLoop({
      bases: t.list.map((s) => s.base),
      path: t.path,
      headers: t.headers,
      rate: t.rate,
      durationS: DURATION,
      connections: t.connections,
    });
    row = openLoopRow(t, r, cpuSeconds(t.list) - cpu0);
  } else row = rowOf(t, await cannon(t), cpuSeconds(t.list) - cpu0);
  if (counted) {
    await sleep(PG_STATS_SETTLE_MS);
    row.jobs_table_scans = (await counted()) - scans0;
  }
  console.log(JSON.stringify(row));
  rows.push(row);
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/** The server-side ESTABLISHED connections on `base`'s port (Linux /proc/net/tcp; NaN elsewhere). */
function establishedTo(base: string): number {
  const port = Number(new URL(base).port).toString(16).toUpperCase().padStart(4, '0');
  try {
    let n = 0;
    for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[1]?.endsWith(`:${port}`) && f[3] === '01') n++;
    }
    return n;
  } catch {
    return Number.NaN;
  }
}

/** Exponential gaps (a Poisson process), seeded like open-loop.ts so a run's schedule repeats. */
function poissonMoments(count: number, ratePerS: number, seed = 20): number[] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const moments: number[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    at += (-Math.log(1 - next()) / ratePerS) * 1000;
    moments.push(at);
  }
  return moments;
}

/** One POST on a keep-alive agent (a browser's open connection): status and body text. */
function post(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((ok, fail) => {
    const req = httpRequest(url, { method: 'POST', agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => ok({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

/**
 * Users' submits (small sleeping jobs, cancelled at once) while 1,000 connections poll the running job.
 * The pollers are autocannon in a worker thread, so the submits' own client (this thread) does not wait
 * behind a thousand pollers' replies; the submits start once every poller connection is established and
 * polling (the steady state "while 1,000 pollers run" means), and arrive open loop: Poisson moments at
 * BENCH_SUBMIT_RATE, each latency counted from its scheduled moment. The submitters take turns (so
 * none reaches its plan's concurrency limit), each on its own keep-alive connections, opened before
 * (a user's browser has its connection open already; a second one is opened when a submit overlaps).
 */
async function submitsUnderLoad(t: Target, submitters: string[]): Promise<void> {
  if (skip(t.target)) return;
  await sleep(PAUSE_MS);
  const body = JSON.stringify(job(2).payload);
  const base = t.list[0]?.base ?? '';
  // Each user's browser: its own keep-alive connections (at most 6, as browsers open per host).
  const agents = submitters.map(() => new Agent({ keepAlive: true, maxSockets: 6 }));
  const headers = (cookie: string) => ({
    ...jsonHeaders(cookie),
    'content-length': String(Buffer.byteLength(body)),
    'x-test-sleep-seconds': '3600',
  });
  // The connection each user's browser already has open.
  for (const agent of agents)
    await new Promise((ok, fail) =>
      httpGet(`${base}/api/plans`, { agent }, (res) => res.resume().on('end', ok)).on('error', fail),
    );
  const moments = poissonMoments(SUBMITS, SUBMIT_RATE);
  const windowS = (moments.at(-1) ?? 0) / 1000;
  const cpu0 = cpuSeconds(t.list);
  const pollers = autocannon({
    url: t.list.map((s) => `${s.base}${t.path}`),
    connections: t.connections,
    duration: Math.ceil(SUBMIT_SETTLE_MAX_S + windowS + 2),
    headers: t.headers,
    timeout: 10,
    workers: 1,
  });
  // Steady state: every poller connection established, then a second of polling.
  const t0 = performance.now();
  while (establishedTo(base) < t.connections && performance.now() - t0 < SUBMIT_SETTLE_MAX_S * 1000 - 1000)
    await sleep(50);
  const connected = establishedTo(base);
  await sleep(1_000);
  const settleS = (performance.now() - t0) / 1000;
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const cancels: Promise<unknown>[] = [];
  const start = performance.now();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  await Promise.all(
    moments.map(async (at, i) => {
      await sleep(Math.max(0, start + at - performance.now()));
      const cookie = submitters[i % submitters.length] ?? '';
      const res = await post(
        agents[i % agents.length] as Agent,
        `${base}/api/fea/submit`,
        { ...headers(cookie), 'x-sent-at': String(performance.timeOrigin + performance.now()) },
        body,
      );
      times.push(performance.now() - (start + at));
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      // Cancelled at once: it waits behind the running job (one slot), so no engine starts.
      if (res.status === 200) {
        const id = (JSON.parse(res.text) as { job_id: string }).job_id;
        cancels.push(cancel(base, cookie, id));
      }
    }),
  );
  delay.disable();
  const r = await pollers;
  await Promise.all(cancels);
  for (const agent of agents) agent.destroy();
  const row = rowOf(t, r, cpuSeconds(t.list) - cpu0);
  const sorted = [...times].sort((a, b) => a - b);
  row.submits = {
    count: times.length,
    rate: SUBMIT_RATE,
    p50_ms: Number(quantile(sorted, 0.5).toFixed(1)),
    p90_ms: Number(quantile(sorted, 0.9).toFixed(1)),
    p99_ms: Number(quantile(sorted, 0.99).toFixed(1)),
    max_ms: Number((sorted.at(-1) ?? Number.NaN).toFixed(1)),
    statuses,
    pollers_connected: connected,
    settle_s: Number(settleS.toFixed(1)),
    client_delay_ms: {
      p99: Number((delay.percentile(99) / 1e6).toFixed(1)),
      max: Number((delay.max / 1e6).toFixed(1)),
    },
  };
  console.log(JSON.stringify(row));
  rows.push(row);
}

interface Prepared {
  big?: { id: string; etag: string; tetrahedra: number; bytes: number; bytesBr: number };
  cookie: string;
  /** Users who submit during the pollers' row, in turn. */
  submitters: string[];
  done: string;
  running: string;
  completedEtag: string;
  tetrahedra: number;
  completedBytes: number;
  completedBytesBr: number;
}

/** A user with one completed job of `cells`³ boxes and one running (sleeping) job; a second user submits. */
async function finishedJob(base: string, cookie: string, cells: number) {
  const spec = job(cells);
  const t0 = Date.now();
  const id = await submit(base, cookie, JSON.stringify(spec.payload));
  const bytes = (await (await waitStatus(base, cookie, id, ['completed'])).arrayBuffer()).byteLength;
  console.log(`completed job: ${spec.tetrahedra} tetrahedra in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const br = await fetch(`${base}/api/fea/status/${id}`, { headers: { cookie, 'accept-encoding': 'br' } });
  // fetch decodes brotli; the wire size is the content-length.
  const bytesBr = Number(br.headers.get('content-length') ?? (await br.arrayBuffer()).byteLength);
  return { id, etag: br.headers.get('etag') ?? '', tetrahedra: spec.tetrahedra, bytes, bytesBr };
}

async function prepare(base: string, cells: number, bigCells = 0): Promise<Prepared> {
  const cookie = await register(base);
  // Eight submitters (the auth limit allows ten registrations an hour from one address): each has a
  // queued job for only the moment between its submit and its cancel, far below its plan's concurrency.
  const submitters: string[] = [];
  for (let i = 0; i < 8; i++) submitters.push(await register(base));
  const completedJob = job(cells);
  const t0 = Date.now();
  const done = await submit(base, cookie, JSON.stringify(completedJob.payload));
  const completed = await waitStatus(base, cookie, done, ['completed']);
  const completedBytes = (await completed.arrayBuffer()).byteLength;
  console.log(
    `completed job: ${completedJob.tetrahedra} tetrahedra in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  const big = bigCells > 0 ? await finishedJob(base, cookie, bigCells) : undefined;
  const running = await submit(base, cookie, JSON.stringify(job(1).payload), 3600);
  await waitStatus(base, cookie, running, ['running']);
  const br = await fetch(`${base}/api/fea/status/${done}`, { headers: { cookie, 'accept-encoding': 'br' } });
  const completedBytesBr = Number(br.headers.get('content-length') ?? (await br.arrayBuffer()).byteLength);
  return {
    big,
    cookie,
    submitters,
    done,
    running,
    completedEtag: br.headers.get('etag') ?? '',
    tetrahedra: completedJob.tetrahedra,
    completedBytes,
    completedBytesBr,
  };
}

async function pollRows(setup: string, list: Server[], p: Prepared, connections: number[]): Promise<void> {
  const browser = { cookie: p.cookie, 'accept-encoding': 'gzip, deflate, br' };
  const at = (
    target: string,
    path: string,
    c: number,
    headers: Record<string, string>,
    rate?: number,
    burst?: boolean,
  ) => load({ setup, target, list, path, connections: c, headers, rate, burst });
  for (const c of connections) {
    await at('GET /api/plans (ceiling)', '/api/plans', c, {});
    await at('status: running job', `/api/fea/status/${p.running}`, c, browser);
    await at('status: completed job', `/api/fea/status/${p.done}`, c, browser);
    await at('status: completed job, If-None-Match', `/api/fea/status/${p.done}`, c, {
      ...browser,
      'if-none-match': p.completedEtag,
    });
    await at('GET /api/user/subscription-info', '/api/user/subscription-info', c, browser);
  }
  await at(`status: running job @ ${GOAL_RATE}/s`, `/api/fea/status/${p.running}`, 200, browser, GOAL_RATE);
  await at(
    `status: completed job @ ${COMPLETED_RATE}/s`,
    `/api/fea/status/${p.done}`,
    200,
    browser,
    COMPLETED_RATE,
  );
  // The same offered rate as autocannon's overallRate offers it (the rows before api20f): every
  // connection's timer fires at once, so each second's requests arrive together.
  await at(
    `status: completed job @ ${COMPLETED_RATE}/s, autocannon (each second's requests at once)`,
    `/api/fea/status/${p.done}`,
    200,
    browser,
    COMPLETED_RATE,
    true,
  );
  if (p.big) {
    // A 1.4 MB (brotli) reply: fetched once per environment; 200 closed-loop connections would ask the
    // loopback and autocannon for ~300 MB in flight, which measures the load generator, not the server.
    const big = `status: completed ${p.big.tetrahedra}-tet job`;
    await at(`${big} @ ${BIG_RATE}/s`, `/api/fea/status/${p.big.id}`, 200, browser, BIG_RATE);
    await at(
      `${big}, If-None-Match @ ${GOAL_RATE}/s`,
      `/api/fea/status/${p.big.id}`,
      200,
      { ...browser, 'if-none-match': p.big.etag },
      GOAL_RATE,
    );
  }
}

const tmp = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `fieldline-bench-api-${name}-`));
  dataDirs.push(dir);
  return dir;
};

const summary: Record<string, unknown> = {};
try {
  // 1. Embedded default: SQLite, embedded queue, local storage; one slot, so submitted jobs queue.
  if (SETUPS.includes('sqlite')) {
    const a = await startServer({ DATA_DIR: tmp('sqlite'), JOB_SLOTS: '1' });
    const p = await prepare(a.base, CELLS, BIG_CELLS);
    summary.sqlite = {
      big: p.big && { tetrahedra: p.big.tetrahedra, reply_bytes: p.big.bytes, reply_bytes_br: p.big.bytesBr },
      tetrahedra: p.tetrahedra,
      reply_bytes: p.completedBytes,
      reply_bytes_br: p.completedBytesBr,
    };
    await pollRows('sqlite, 1 API process', [a], p, CONNECTIONS);
    await submitsUnderLoad(
      {
        setup: 'sqlite, 1 API process',
        target: 'submit while 1,000 poll the running job',
        list: [a],
        path: `/api/fea/status/${p.running}`,
        connections: 1000,
        headers: { cookie: p.cookie, 'accept-encoding': 'gzip, deflate, br' },
      },
      p.submitters,
    );
    await cancel(a.base, p.cookie, p.running);
    a.proc.kill('SIGTERM');
  }
  // 2. PostgreSQL + two API processes sharing DATA_DIR; each runs its embedded queue, polls go to both.
  if (PG_URL && SETUPS.includes('postgres')) {
    const dir = tmp('pg');
    jobsScans = () => pgJobsScans(PG_URL);
    const one = await startServer({ DATA_DIR: dir, DATABASE_URL: PG_URL, JOB_SLOTS: '1' });
    const two = await startServer({ DATA_DIR: dir, DATABASE_URL: PG_URL, JOB_SLOTS: '1' });
    const p = await prepare(one.base, PG_CELLS);
    summary.postgres = {
      tetrahedra: p.tetrahedra,
      reply_bytes: p.completedBytes,
      reply_bytes_br: p.completedBytesBr,
    };
    await pollRows('postgres, 2 API processes', [one, two], p, [200]);
    await cancel(one.base, p.cookie, p.running);
    jobsScans = null;
  } else if (SETUPS.includes('postgres')) {
    console.log('PostgreSQL rows skipped: run under scripts/with-postgres.sh (or set BENCH_DATABASE_URL)');
  }

  const results = {
    label: LABEL,
    date: new Date().toISOString(),
    duration_s: DURATION,
    machine: { cpus: cpus().length, load_average_at_end: loadavg().map((l) => Number(l.toFixed(2))) },
    completed_jobs: summary,
    rows,
  };
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, `${LABEL}.json`), `${JSON.stringify(results, null, 2)}\n`);
  console.log(
    `\n${JSON.stringify(summary)}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  console.log(
    '| setup | target | conn | offered/s | req/s | p50 ms | p99 ms | max ms | MB/s | statuses | errors (timeouts) | server CPU µs/req | load 1m | jobs scans | open-loop client delay p99/max ms |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.setup} | ${r.target} | ${r.connections} | ${r.offered_rate ?? 'max'} | ${r.requests_per_second} | ${r.p50_ms} | ${r.p99_ms} | ${r.max_ms} | ${r.mb_per_second} | ${Object.entries(
        r.statuses,
      )
        .map(([k, v]) => `${k}×${v}`)
        .join(
          ' ',
        )} | ${r.errors} (${r.timeouts}) | ${r.server_cpu_us_per_request} | ${r.load_average_1m} | ${r.jobs_table_scans ?? '–'} | ${r.client_delay_ms ? `${r.client_delay_ms.p99}/${r.client_delay_ms.max}` : '–'} |`,
    );
    if (r.submits)
      console.log(
        `| ${r.setup} | ↳ ${r.submits.count} submits meanwhile (p90 ${r.submits.p90_ms} ms; pollers connected ${r.submits.pollers_connected} after ${r.submits.settle_s} s) | – | ${r.submits.rate} | – | ${r.submits.p50_ms} | ${r.submits.p99_ms} | ${r.submits.max_ms} | – | ${Object.entries(
          r.submits.statuses,
        )
          .map(([k, v]) => `${k}×${v}`)
          .join(' ')} | – | – | – | – | ${r.submits.client_delay_ms.p99}/${r.submits.client_delay_ms.max} |`,
      );
  }
} finally {
  stopServers();
  await sleep(1000);
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
}
