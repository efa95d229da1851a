// Does a large job's completion freeze the API? (issue 37, "Many jobs finishing must not freeze the API")
//
// The compiled server on its embedded default (SQLite, embedded queue, local encrypted storage, one job
// slot), its own process. A user has a small completed job (BENCH_CELLS, default 8 → 3,072 tetrahedra);
// open-loop polls of its status (Accept-Encoding: br) arrive at BENCH_POLL_RATE (1,000/s, Poisson) over
// 200 keep-alive connections for the whole run, while the same user submits a large electrostatic job
// (BENCH_BIG_CELLS, default 40 → 384,000 tetrahedra), which runs and completes; its environment then
// polls its status every 2 s (the completed reply once), opens the results info, the binary results and
// downloads results.json, as a user does. Every poll's latency counts from its scheduled moment.
//
// Usage: npx tsx bench/api/completion.ts   (env: BENCH_BIG_CELLS, BENCH_POLL_RATE, BENCH_AFTER_S=10,
//        BENCH_LABEL, BENCH_NODE_ARGS e.g. "--require ./bench/api/stall-probe.cjs" or "--cpu-prof")
// Prints the p50/p99/max of the polls over the whole run and per phase, and every second in which a
// poll waited more than 100 ms; writes bench/api/out/completion-<label>.json.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { boxMesh, facesOnPlane } from '../../server/test/support/box-mesh.ts';
import { openLoop } from './open-loop.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'bench', 'api', 'out');
const CELLS = Number(process.env.BENCH_CELLS ?? 8);
const BIG_CELLS = Number(process.env.BENCH_BIG_CELLS ?? 40);
const RATE = Number(process.env.BENCH_POLL_RATE ?? 1000);
const AFTER_S = Number(process.env.BENCH_AFTER_S ?? 10);
const LABEL = process.env.BENCH_LABEL ?? 'latest';
const SLOW_MS = 100;

// @ts-expect-error plain ESM helper without types
const {
  ensureServerBuilt,
  SERVER_ENTRY: BUILT_ENTRY,
  SERVER_ENV,
  SERVER_NODE_ARGS,
} = await import('../../scripts/build-server.mjs');
const SERVER_ENTRY = process.env.BENCH_SERVER_ENTRY ? resolve(process.env.BENCH_SERVER_ENTRY) : BUILT_ENTRY;
if (!process.env.BENCH_SERVER_ENTRY) await ensureServerBuilt();
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

const dataDir = mkdtempSync(join(tmpdir(), 'fieldline-bench-completion-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server: ChildProcess = spawn(
  process.execPath,
  [...SERVER_NODE_ARGS, ...NODE_ARGS, SERVER_ENTRY, 'serve'],
  {
    cwd: ROOT,
    env: {
      ...SERVER_ENV,
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      JOB_SLOTS: '1',
      WELCOME_GRANT_TOKENS: '100000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
process.on('exit', () => {
  if (server.exitCode === null) server.kill('SIGTERM');
});

const jsonHeaders = (cookie?: string) => ({
  'content-type': 'application/json',
  'sec-fetch-site': 'same-origin',
  ...(cookie ? { cookie } : {}),
});

function job(cells: number) {
  const mesh = boxMesh([1, 1, 1], [cells, cells, cells]);
  return {
    tetrahedra: mesh.tetrahedra.length,
    body: JSON.stringify({
      mesh_data: mesh,
      config: {
        analysisType: 'em',
        frequency: 0,
        dirichletFaceConditions: [
          { faces: facesOnPlane(mesh, 2, 0), voltage: 0 },
          { faces: facesOnPlane(mesh, 2, 1), voltage: 1 },
        ],
      },
    }),
  };
}

async function submit(cookie: string, body: string): Promise<string> {
  const res = await fetch(`${base}/api/fea/submit`, { method: 'POST', headers: jsonHeaders(cookie), body });
  if (!res.ok) throw new Error(`submit: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { job_id: string }).job_id;
}

/**
 * The job's status from the first bytes of its reply: a completed reply carries the whole results (tens of
 * MB), and decoding and parsing them here would stall this client and count as the server's latency.
 */
async function statusOf(cookie: string, id: string): Promise<{ status: string; bytes: number }> {
  const res = await fetch(`${base}/api/fea/status/${id}`, { headers: { cookie, 'accept-encoding': 'br' } });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const first = await reader.read();
  await reader.cancel();
  const head = Buffer.from(first.value ?? new Uint8Array()).toString('utf8', 0, 200);
  const status = /"status":"(\w+)"/.exec(head)?.[1] ?? 'unknown';
  return { status, bytes: Number(res.headers.get('content-length') ?? 0) };
}

const events: { t: number; what: string }[] = [];
let t0 = performance.now();
const mark = (what: string) => {
  events.push({ t: (performance.now() - t0) / 1000, what });
  console.log(`${((performance.now() - t0) / 1000).toFixed(1)} s: ${what}`);
};

try {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/plans`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error('the server did not start');
    await sleep(200);
  }
  const reg = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: jsonHeaders(),
    body: JSON.stringify({
      name: 'Bench User',
      email: `bench.${Date.now().toString(36)}@analytical-engines.com`,
      username: `bench_${Date.now().toString(36)}`,
      password: 'correct horse battery staple',
      acceptedTerms: true,
    }),
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const cookie = reg.headers.getSetCookie()[0]?.split(';')[0] ?? '';
  const small = await submit(cookie, job(CELLS).body);
  while ((await statusOf(cookie, small)).status !== 'completed') await sleep(300);
  const big = job(BIG_CELLS);
  console.log(`small job completed; the large job has ${big.tetrahedra} tetrahedra (${big.body.length} B)`);

  // Per-sample record: [seconds since t0 of the scheduled moment, latency ms].
  const samples: [number, number][] = [];
  const stop = new AbortController();
  t0 = performance.now();
  const polls = openLoop({
    bases: [base],
    path: `/api/fea/status/${small}`,
    headers: { cookie, 'accept-encoding': 'br' },
    rate: RATE,
    durationS: 3600,
    connections: 200,
    timeoutS: 30,
    stop: stop.signal,
    onSample: (scheduled, latency) => samples.push([(scheduled - t0) / 1000, latency]),
  });
  await sleep(3000);
  mark('submit sent');
  const bigId = await submit(cookie, big.body);
  mark('submit answered');
  let seen = 'queued';
  for (;;) {
    await sleep(2000);
    const s = await statusOf(cookie, bigId);
    if (s.status !== seen)
      mark(`large job ${s.status}${s.status === 'completed' ? ` (reply ${s.bytes} B br)` : ''}`);
    seen = s.status;
    if (!['queued', 'running'].includes(s.status)) break;
  }
  if (seen !== 'completed') throw new Error(`the large job ended ${seen}`);
  for (const [what, path] of [
    ['results info', `/api/fea/results/${bigId}/info`],
    ['results.bin', `/api/fea/results/${bigId}/binary`],
    ['download results.json', `/api/fea/download/${bigId}?format=json`],
  ] as const) {
    await sleep(2000);
    const res = await fetch(`${base}${path}`, { headers: { cookie, 'accept-encoding': 'br' } });
    const n = (await res.arrayBuffer()).byteLength;
    mark(`${what}: ${res.status}, ${n} B`);
  }
  await sleep(AFTER_S * 1000);
  mark('end');
  stop.abort();
  const all = await polls;

  const q = (xs: number[], p: number) =>
    xs.length === 0 ? 0 : Number((xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0).toFixed(1));
  const stats = (from: number, to: number) => {
    const xs = samples
      .filter(([t]) => t >= from && t < to)
      .map(([, l]) => l)
      .sort((a, b) => a - b);
    return { n: xs.length, p50: q(xs, 0.5), p99: q(xs, 0.99), max: Number((xs.at(-1) ?? 0).toFixed(1)) };
  };
  const at = (what: string) => events.find((e) => e.what.startsWith(what))?.t ?? Number.NaN;
  const phases = {
    before: stats(0, at('submit sent')),
    'submit → running': stats(at('submit sent'), at('large job running')),
    'running → completed seen': stats(at('large job running'), at('large job completed')),
    'completed → end': stats(at('large job completed'), Number.POSITIVE_INFINITY),
    whole: stats(0, Number.POSITIVE_INFINITY),
  };
  const slowSeconds = new Map<number, { n: number; max: number }>();
  for (const [t, l] of samples)
    if (l > SLOW_MS) {
      const s = Math.floor(t);
      const e = slowSeconds.get(s) ?? { n: 0, max: 0 };
      slowSeconds.set(s, { n: e.n + 1, max: Math.max(e.max, l) });
    }
  const result = {
    label: LABEL,
    date: new Date().toISOString(),
    tetrahedra: big.tetrahedra,
    rate: RATE,
    polls: {
      offered: all.offered,
      answered: all.completed,
      p50: all.p50,
      p99: all.p99,
      max: all.max,
      timeouts: all.timeouts,
      errors: all.errors,
      client_delay_p99_max: [all.clientDelayP99, all.clientDelayMax],
    },
    phases,
    events,
    slow_seconds: [...slowSeconds].map(([s, e]) => ({ second: s, ...e, max: Number(e.max.toFixed(0)) })),
    load_average: loadavg(),
  };
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, `completion-${LABEL}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `\npolls of the small job @ ${RATE}/s (br), while a ${big.tetrahedra}-tet job runs and completes:`,
  );
  console.log('| phase | polls | p50 ms | p99 ms | max ms |\n| --- | --- | --- | --- | --- |');
  for (const [name, s] of Object.entries(phases))
    console.log(`| ${name} | ${s.n} | ${s.p50} | ${s.p99} | ${s.max} |`);
  console.log(
    `timeouts ${all.timeouts}, errors ${all.errors}; client delay p99/max ${all.clientDelayP99}/${all.clientDelayMax} ms`,
  );
  console.log(`seconds with a poll over ${SLOW_MS} ms:`);
  for (const s of result.slow_seconds) console.log(`  ${s.second} s: ${s.n} polls, max ${s.max} ms`);
} finally {
  if (server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
}
