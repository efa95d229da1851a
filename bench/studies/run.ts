// bench/studies: a 16-point structural study on the STEP bracket (issue 37 "Performance"), on the embedded
// default (SQLite, embedded queue, local storage), once with JOB_SLOTS=1 and once with JOB_SLOTS=2.
//
// Each run is its own compiled server process and data dir. The bracket (e2e/support/geometry-files.ts) is
// converted and volume-meshed once per run (POST /api/convert-step, force_tet); then one study sweeps the
// load's z component over 8 values × Young's modulus over 2 (grid, 16 points, outputs max von Mises and max
// displacement) and is polled every second (the web's Study panel: every 2 s) until every point has finished.
//   wall: from POST /api/fea/studies (the bench's clock) to the study's finished_at (the server's record, on
//   the same machine's clock): exact whatever the poll interval, so the bench need not poll often — a 50 ms
//   poll cost the server ≈ 35 ms of CPU per point at load 12, on the cores the points run on. The wall to
//   the poll that saw the end is printed too ("polled");
//   run: each point's compute_seconds (the job's own metered run, engine start to results);
//   overhead per point (1 slot): (wall − Σ run) / 16 — everything a point costs besides its own run
//   (submit to queued, queued to running, result into the table) when the points run one after another,
//   the study's own start and end included; timeline.ts splits it from the server's SQLite file: the
//   POST, study row → first point queued, the gap between one point's end and the next one's start, a
//   point's result into the table (overlapping the next point's run) and the study's end.
//   server CPU per point: the server process's CPU time (every thread: event loop, storage worker, results
//   reader; not the engines) from the POST to the last poll, / 16 — what the server takes from the cores
//   the points run on (load-insensitive, unlike the wall time).
// Usage: npx tsx bench/studies/run.ts   (env: BENCH_SLOTS="1 2", BENCH_LABEL, BENCH_POLL_MS (default 1000),
//   BENCH_LOAD_STEPS (default 8: 16 points), BENCH_NODE_ARGS (extra node flags for the server, e.g. --trace-gc),
//   BENCH_CPU_PROF=<dir> (V8 CPU profiles of the server's threads), BENCH_DUMP_STUDY=<file> (the study's body))
// Writes bench/studies/out/<label>.json and prints one line per run.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeBracketStep } from '../../e2e/support/geometry-files.ts';
import { describeTimeline, readTimeline, type StudyTimeline } from './timeline.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'bench', 'studies', 'out');
const SLOTS = (process.env.BENCH_SLOTS ?? '1 2').split(' ').filter(Boolean).map(Number);
const LABEL = process.env.BENCH_LABEL ?? 'latest';
/** How often the study is polled (the web's Study panel polls every 2 s); the wall does not depend on it. */
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 1000);
/**
 * The loads swept (× 2 moduli = the points); the study is 8 (16 points). More points average out
 * the server's major GCs (one more or less in a 16-point study moves its CPU per point by 5–10 ms).
 */
const LOAD_STEPS = Number(process.env.BENCH_LOAD_STEPS ?? 8);

// @ts-expect-error plain ESM helper without types
const { ensureServerBuilt, SERVER_ENTRY, SERVER_ENV, SERVER_NODE_ARGS } = await import(
  '../../scripts/build-server.mjs'
);
await ensureServerBuilt();

/**
 * CPU seconds (user + system, every thread) the process has used so far, from /proc (Linux); with
 * `reapedChildren`, those of its children it has waited for instead (cutime + cstime).
 */
function cpuSeconds(pid: number | undefined, reapedChildren = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const at = reapedChildren ? 13 : 11; // utime, stime / cutime, cstime in clock ticks (USER_HZ = 100)
    return (Number(fields[at]) + Number(fields[at + 1])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Per thread of the process: its name and CPU seconds (user, system) so far, from /proc (Linux). */
function threadCpu(pid: number | undefined): Map<string, { name: string; user: number; sys: number }> {
  const out = new Map<string, { name: string; user: number; sys: number }>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.set(tid, { name, user: Number(f[11]) / 100, sys: Number(f[12]) / 100 });
      } catch {}
    }
  } catch {}
  return out;
}

/**
 * Where the server's CPU went between two snapshots, per point: user and system time, and by thread kind
 * (the event loop is the thread named like the process; libuv's pool, V8's GC helpers, the worker threads).
 */
function describeThreadCpu(
  before: ReturnType<typeof threadCpu>,
  after: ReturnType<typeof threadCpu>,
  mainTid: string,
  points: number,
): string {
  const byKind = new Map<string, number>();
  let user = 0;
  let sys = 0;
  for (const [tid, a] of after) {
    const b = before.get(tid) ?? { user: 0, sys: 0 };
    const du = a.user - b.user;
    const ds = a.sys - b.sys;
    user += du;
    sys += ds;
    const kind = tid === mainTid ? 'event loop' : `${a.name}:${tid}`;
    byKind.set(kind, (byKind.get(kind) ?? 0) + du + ds);
  }
  const per = (s: number) => `${((1000 * s) / points).toFixed(1)}`;
  const kinds = [...byKind]
    .filter(([, s]) => s > 0)
    .sort((x, y) => y[1] - x[1])
    .map(([k, s]) => `${k} ${per(s)}`)
    .join(', ');
  return `user ${per(user)} + system ${per(sys)} ms per point (threads still alive: ${kinds})`;
}

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

type Mesh = { vertices: number[][]; faces: number[][]; tetrahedra: number[][]; face_patches?: number[] };

function facesWhere(mesh: Mesh, test: (v: number[]) => boolean): number[] {
  const ids: number[] = [];
  mesh.faces.forEach((f, i) => {
    if (f.every((k) => test(mesh.vertices[k] ?? []))) ids.push(i + 1);
  });
  return ids;
}

interface RunResult {
  slots: number;
  points: number;
  tetrahedra: number;
  wallS: number;
  /** to the poll that saw the last point finished */
  polledWallS: number;
  runS: number[];
  loadBefore: number[];
  loadAfter: number[];
  /** POST /api/fea/studies round trip */
  postMs: number;
  /** the server process's CPU seconds (all its threads, not the engines) from the POST to the study's end */
  serverCpuS: number;
  /** the same split into user and system time and by thread */
  serverThreads: string;
  /**
   * CPU seconds of the server's children it reaped meanwhile: each point's spare launcher (the forked engine
   * is the fork server's child, not counted here), ENGINE_SPARE_LAUNCHER's compiled or Python one.
   */
  launcherCpuS: number;
  timeline: StudyTimeline;
}

async function runWith(slots: number, step: Buffer): Promise<RunResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldline-bench-studies-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // BENCH_CPU_PROF=<dir>: V8 CPU profiles of the server's threads (open in Chrome DevTools or speedscope)
  const prof = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROF)}`, '--cpu-prof-interval=200']
    : [];
  const server: ChildProcess = spawn(
    process.execPath,
    [
      ...SERVER_NODE_ARGS,
      ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
      ...prof,
      SERVER_ENTRY,
      'serve',
    ],
    {
      cwd: ROOT,
      env: {
        ...SERVER_ENV,
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        JOB_SLOTS: String(slots),
        WELCOME_GRANT_TOKENS: '100000',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        if ((await fetch(`${base}/api/plans`)).ok) break;
      } catch {}
      if (Date.now() > deadline) throw new Error('the server did not start');
      await sleep(200);
    }
    const headers = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' };
    const id = `${Date.now().toString(36)}${slots}`;
    const reg = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Bench User',
        email: `bench.${id}@analytical-engines.com`,
        username: `bench_${id}`,
        password: 'correct horse battery staple',
        acceptedTerms: true,
      }),
    });
    if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
    const cookie = reg.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    const form = new FormData();
    form.append('file', new Blob([step]), 'bracket.step');
    form.append('force_tet', 'true');
    const conv = await fetch(`${base}/api/convert-step`, {
      method: 'POST',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
      body: form,
    });
    if (!conv.ok) throw new Error(`convert-step: ${conv.status} ${await conv.text()}`);
    const surface = (await conv.json()) as Mesh & { upload_id: string };
    // Generate Volume Mesh as the environment does: a tetra-only job on the upload
    const meshing = await fetch(`${base}/api/fea/submit`, {
      method: 'POST',
      headers: { ...headers, cookie },
      body: JSON.stringify({
        mesh_data: { ...surface, tetrahedra: undefined, source_upload_id: surface.upload_id },
        config: { analysisType: 'tetra-only', mode: 'tetra-only', meshingOnly: true },
      }),
    });
    if (!meshing.ok) throw new Error(`meshing: ${meshing.status} ${await meshing.text()}`);
    const meshJob = ((await meshing.json()) as { job_id: string }).job_id;
    let mesh: Mesh | null = null;
    while (!mesh) {
      await sleep(500);
      const st = (await (
        await fetch(`${base}/api/fea/status/${meshJob}`, { headers: { cookie } })
      ).json()) as {
        status: string;
        results?: Mesh;
        error?: string;
      };
      if (st.status === 'completed' && st.results) mesh = st.results;
      else if (!['queued', 'running'].includes(st.status))
        throw new Error(`meshing ${st.status}: ${st.error}`);
    }
    if (!mesh.tetrahedra?.length) throw new Error('the meshing job gave no tetrahedra');
    const hole = (x: number) =>
      facesWhere(mesh, (v) => Math.abs(Math.hypot((v[0] ?? 0) - x, (v[1] ?? 0) - 15) - 4) < 0.05);
    const top = facesWhere(mesh, (v) => Math.abs((v[2] ?? 0) - 36) < 1e-6);
    const body = {
      name: 'bench: bracket 8 loads × 2 moduli',
      mesh_data: mesh,
      config: {
        analysisType: 'structural',
        bodyMaterials: [{ region: 0, youngsModulus: 200e9, poissonRatio: 0.3 }],
        fixedSupports: [{ faces: [...hole(15), ...hole(45)], name: 'bolts' }],
        forceLoads: [{ faces: top, force: [0, 0, -100] }],
      },
      parameters: [
        { path: 'forceLoads[0].force[2]', from: -100, to: -800, steps: LOAD_STEPS },
        { path: 'bodyMaterials[0].youngsModulus', values: [69e9, 200e9] },
      ],
      combine: 'grid',
      outputs: ['max_von_mises_Pa', 'max_displacement_m'],
    };
    if (process.env.BENCH_DUMP_STUDY) writeFileSync(process.env.BENCH_DUMP_STUDY, JSON.stringify(body));
    const loadBefore = loadavg();
    const cpu0 = cpuSeconds(server.pid);
    const threads0 = threadCpu(server.pid);
    const reaped0 = cpuSeconds(server.pid, true);
    const t0 = performance.now();
    const startedEpochMs = Date.now();
    const created = await fetch(`${base}/api/fea/studies`, {
      method: 'POST',
      headers: { ...headers, cookie },
      body: JSON.stringify(body),
    });
    const postMs = Math.round(performance.now() - t0);
    if (created.status !== 201) throw new Error(`study: ${created.status} ${await created.text()}`);
    const { study_id } = (await created.json()) as { study_id: string };
    type Point = { status: string; compute_seconds: number | null; error: string | null };
    for (;;) {
      await sleep(POLL_MS);
      const s = (await (
        await fetch(`${base}/api/fea/studies/${study_id}`, { headers: { cookie } })
      ).json()) as {
        progress: { total: number; completed: number; failed: number; cancelled: number };
        points: Point[];
      };
      const p = s.progress;
      if (p.completed + p.failed + p.cancelled === p.total) {
        const polledWallS = (performance.now() - t0) / 1000;
        if (p.failed + p.cancelled > 0)
          throw new Error(
            `points failed: ${s.points
              .map((x) => x.error)
              .filter(Boolean)
              .join('; ')}`,
          );
        const timeline = readTimeline(dataDir, study_id, slots);
        return {
          slots,
          points: p.total,
          tetrahedra: mesh.tetrahedra.length,
          wallS: (timeline.finishedEpochMs - startedEpochMs) / 1000,
          polledWallS,
          runS: s.points.map((x) => x.compute_seconds ?? Number.NaN),
          loadBefore,
          loadAfter: loadavg(),
          postMs,
          serverCpuS: cpuSeconds(server.pid) - cpu0,
          serverThreads: describeThreadCpu(threads0, threadCpu(server.pid), String(server.pid), p.total),
          launcherCpuS: cpuSeconds(server.pid, true) - reaped0,
          timeline,
        };
      }
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const stepDir = mkdtempSync(join(tmpdir(), 'fieldline-bench-bracket-'));
const step = readFileSync(writeBracketStep(stepDir));
rmSync(stepDir, { recursive: true, force: true });
const results: RunResult[] = [];
for (const slots of SLOTS) {
  const r = await runWith(slots, step);
  results.push(r);
  const sum = r.runS.reduce((a, b) => a + b, 0);
  const mean = sum / r.runS.length;
  const overhead = (r.wallS - sum) / r.points;
  // A slot starts its next point once the engine ends, while the previous point still stores its results
  // (part of that point's run): the runs overlap. Added back, the overhead counts every run in full.
  const overlapS = r.timeline.startGapsMs.reduce((a, g) => a + Math.max(0, -g), 0) / 1000;
  const overheadFull = overhead + overlapS / r.points;
  console.log(
    `${slots} slot${slots === 1 ? '' : 's'}: ${r.points} points on ${r.tetrahedra} tetrahedra, wall ${r.wallS.toFixed(2)} s (polled ${r.polledWallS.toFixed(1)} s), point run mean ${mean.toFixed(2)} s (Σ ${sum.toFixed(1)} s)` +
      (slots === 1
        ? `, overhead ${overhead.toFixed(3)} s per point = ${((100 * overhead) / mean).toFixed(1)} % of a point's run` +
          ` (runs' overlap ${overlapS.toFixed(2)} s added back: ${overheadFull.toFixed(3)} s = ${((100 * overheadFull) / mean).toFixed(1)} %)`
        : '') +
      `; POST ${r.postMs} ms; server CPU ${((1000 * r.serverCpuS) / r.points).toFixed(0)} ms per point (${r.serverThreads}); spare launchers ${((1000 * r.launcherCpuS) / r.points).toFixed(1)} ms per point; ${describeTimeline(r.timeline, mean)}` +
      `; load ${r.loadBefore.map((l) => l.toFixed(1)).join(' ')} → ${r.loadAfter.map((l) => l.toFixed(1)).join(' ')}`,
  );
}
// Pair by pair (BENCH_SLOTS="1 2 1 2": each 2-slot run against the 1-slot run next to it).
const ones = results.filter((r) => r.slots === 1);
const twos = results.filter((r) => r.slots === 2);
const ratios = ones
  .slice(0, twos.length)
  .map((one, i) => ((twos[i] as RunResult).wallS / one.wallS).toFixed(3));
if (ratios.length > 0) console.log(`2 slots / 1 slot wall time: ${ratios.join(', ')} (goal ≤ 0.6)`);
mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, `${LABEL}.json`), JSON.stringify(results, null, 2));
