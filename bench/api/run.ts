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
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { boxMesh, facesOnPlane } from '../../server/test/support/box-mesh.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'bench', 'api', 'out');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '200,1000').split(',').map(Number);
const CELLS = Number(process.env.BENCH_CELLS ?? 8);
const LABEL = process.env.BENCH_LABEL ?? 'latest';

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

const dataDir = mkdtempSync(join(tmpdir(), 'fieldline-bench-api-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts', 'serve'], {
  cwd: ROOT,
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    JOB_SLOTS: '2',
    ENGINE_TEST_HOOKS: '1',
    WELCOME_GRANT_TOKENS: '1000',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stopServer = () => {
  if (server.exitCode === null) server.kill('SIGTERM');
};
process.on('exit', stopServer);

async function waitUp(): Promise<void> {
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

async function register(): Promise<string> {
  const tag = Date.now().toString(36);
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

async function submit(cookie: string, payload: unknown, sleepSeconds?: number): Promise<string> {
  const res = await fetch(`${base}/api/fea/submit`, {
    method: 'POST',
    headers: {
      ...jsonHeaders(cookie),
      ...(sleepSeconds ? { 'x-test-sleep-seconds': String(sleepSeconds) } : {}),
    },
    body: JSON.stringify(payload),
  });
  if (!res.ok) throw new Error(`submit: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { job_id: string }).job_id;
}

async function waitStatus(cookie: string, id: string, want: string[]): Promise<Response> {
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${base}/api/fea/status/${id}`, { headers: { cookie } });
    const body = (await res.clone().json()) as { status: string; error?: string };
    if (want.includes(body.status)) return res;
    if (!['queued', 'running'].includes(body.status)) throw new Error(`job ${id}: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`job ${id} did not reach ${want}`);
}

/** CPU seconds the server process has used (utime + stime from /proc; Linux only, else NaN). */
function serverCpuSeconds(): number {
  try {
    const stat = readFileSync(`/proc/${server.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks (USER_HZ = 100)
  } catch {
    return Number.NaN;
  }
}

interface Row {
  target: string;
  connections: number;
  requests_per_second: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
  mb_per_second: number;
  non_2xx: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Server CPU time per answered request: the cost, whatever else the machine runs. */
  server_cpu_us_per_request: number;
}

async function load(
  target: string,
  path: string,
  connections: number,
  headers: Record<string, string>,
): Promise<Row> {
  const cpu0 = serverCpuSeconds();
  const r = await autocannon({
    url: `${base}${path}`,
    connections,
    duration: DURATION,
    headers,
    timeout: 10,
  });
  const cpu = serverCpuSeconds() - cpu0;
  const statuses: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.statusCodeStats ?? {})) statuses[k] = (v as { count: number }).count;
  const row: Row = {
    target,
    connections,
    requests_per_second: Math.round(r.requests.average),
    p50_ms: r.latency.p50,
    p90_ms: r.latency.p90,
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
    mb_per_second: Number((r.throughput.average / 1e6).toFixed(1)),
    non_2xx: r.non2xx,
    statuses,
    errors: r.errors,
    timeouts: r.timeouts,
    server_cpu_us_per_request: Math.round((cpu * 1e6) / Math.max(1, r.requests.total)),
  };
  console.log(JSON.stringify(row));
  return row;
}

try {
  await waitUp();
  const cookie = await register();
  const completedJob = job(CELLS);
  const done = await submit(cookie, completedJob.payload);
  const completed = await waitStatus(cookie, done, ['completed']);
  const completedBytes = (await completed.arrayBuffer()).byteLength;
  const running = await submit(cookie, job(1).payload, 3600);
  await waitStatus(cookie, running, ['running']);
  const etagOf = async (id: string) =>
    (
      await fetch(`${base}/api/fea/status/${id}`, { headers: { cookie, 'accept-encoding': 'gzip, br' } })
    ).headers.get('etag') ?? '';
  const completedEtag = await etagOf(done);
  const browser = { cookie, 'accept-encoding': 'gzip, deflate, br' };

  const rows: Row[] = [];
  for (const c of CONNECTIONS) {
    rows.push(await load('GET /api/plans (ceiling)', '/api/plans', c, {}));
    rows.push(await load('status: running job', `/api/fea/status/${running}`, c, browser));
    rows.push(await load('status: completed job', `/api/fea/status/${done}`, c, browser));
    if (completedEtag)
      rows.push(
        await load('status: completed job, If-None-Match', `/api/fea/status/${done}`, c, {
          ...browser,
          'if-none-match': completedEtag,
        }),
      );
    rows.push(await load('GET /api/user/subscription-info', '/api/user/subscription-info', c, browser));
  }
  const results = {
    label: LABEL,
    date: new Date().toISOString(),
    duration_s: DURATION,
    database: 'sqlite (embedded default)',
    machine: { cpus: cpus().length, load_average_at_end: loadavg().map((l) => Number(l.toFixed(2))) },
    completed_job: { tetrahedra: completedJob.tetrahedra, reply_bytes_uncompressed: completedBytes },
    rows,
  };
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, `${LABEL}.json`), `${JSON.stringify(results, null, 2)}\n`);
  console.log(
    `\ncompleted job: ${completedJob.tetrahedra} tetrahedra, reply ${completedBytes} bytes uncompressed; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  console.log(
    '| target | conn | req/s | p50 ms | p99 ms | max ms | MB/s | statuses | errors (timeouts) | server CPU µs/req |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows)
    console.log(
      `| ${r.target} | ${r.connections} | ${r.requests_per_second} | ${r.p50_ms} | ${r.p99_ms} | ${r.max_ms} | ${r.mb_per_second} | ${Object.entries(
        r.statuses,
      )
        .map(([k, v]) => `${k}×${v}`)
        .join(' ')} | ${r.errors} (${r.timeouts}) | ${r.server_cpu_us_per_request} |`,
    );
  await fetch(`${base}/api/fea/cancel/${running}`, { method: 'POST', headers: jsonHeaders(cookie) });
} finally {
  stopServer();
  await new Promise((r) => setTimeout(r, 1000));
  rmSync(dataDir, { recursive: true, force: true });
}
