// Main-thread CPU work of each page's first load, read from Chromium's own trace as *thread* time (`tdur`),
// which a busy machine inflates far less than the wall time Lighthouse reads. For comparing builds on a
// shared machine: the builds are served side by side and loaded in alternation.
//   node bench/web/cpu.mjs [--dist web/dist,/path/to/other/dist] [--rounds N] [--pages dashboard,billing]
// Per page and build: the median (and min) over the rounds of
//   cpu    all top-level tasks of the page's renderer main thread, navigation to 1.5 s after network idle
//   script the script evaluation, function calls and compilation inside them
//   style  style recalculation and layout
//   long   the longest task
//   tbt×4  Σ max(0, 4·task − 50 ms) over tasks after first contentful paint: Lighthouse's mobile preset
//          simulates a 4× slower CPU, so this is the total blocking time those tasks would cost it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { registerBenchUser, waitForServer } from './bench-account.mjs';

const HERE = import.meta.dirname;
const ROOT = resolve(HERE, '..', '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const DISTS = arg('--dist', 'web/dist')
  .split(',')
  .map((d) => resolve(ROOT, d));
const ROUNDS = Number(arg('--rounds', '5'));
const ALL_PAGES = {
  landing: ['/', false],
  login: ['/#/userdatabase/Login', false],
  dashboard: ['/#/dashboard', true],
  billing: ['/#/billing', true],
};
const PAGES = arg('--pages', Object.keys(ALL_PAGES).join(',')).split(',');

async function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? res(address.port) : rej(new Error('no port')),
      );
    });
  });
}

/** The real server on a fresh data dir serving `dist`, with one registered account's session cookie. */
async function startServer(dist) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldline-bench-cpu-'));
  const origin = `http://localhost:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: origin,
      WEB_DIST_DIR: dist,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForServer(origin, 90_000);
  const [name, value] = (await registerBenchUser(origin, 'cpu')).split('=');
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { dist, origin, cookie: { name, value, url: origin }, stop };
}

const SCRIPT = new Set([
  'EvaluateScript',
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'EventDispatch',
  'v8.compile',
  'v8.compileModule',
  'v8.evaluateModule',
  'V8.RunMicrotasks',
  'RunMicrotasks',
  'v8.run',
]);
const STYLE = new Set(['UpdateLayoutTree', 'Layout', 'RecalculateStyles', 'ParseAuthorStyleSheet']);
const TOP = (e) =>
  e.ph === 'X' &&
  (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') &&
  e.cat.includes('toplevel');

/** The page's renderer main thread: the one that evaluated the app's entry. */
function summarize(events, origin) {
  const mains = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const counts = new Map();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (mains.has(key) && (e.args?.data?.url ?? '').startsWith(origin))
      counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  const mine = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.tdur !== undefined);
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && `${e.pid}:${e.tid}` === main)?.ts ?? 0;
  const tasks = mine.filter(TOP);
  // Nested events are counted once: only the outermost script (or style) event inside each task.
  const outermost = (set) => {
    let total = 0;
    let end = -1;
    for (const e of mine.filter((x) => set.has(x.name)).sort((a, b) => a.ts - b.ts)) {
      if (e.ts >= end) {
        total += e.tdur;
        end = e.ts + e.dur;
      }
    }
    return total / 1000;
  };
  const ms = (us) => us / 1000;
  return {
    cpu: ms(tasks.reduce((s, e) => s + e.tdur, 0)),
    script: outermost(SCRIPT),
    style: outermost(STYLE),
    long: ms(Math.max(0, ...tasks.map((e) => e.tdur))),
    tbt4: tasks.filter((e) => e.ts >= fcp).reduce((s, e) => s + Math.max(0, (4 * e.tdur) / 1000 - 50), 0),
    fcpFound: fcp > 0,
    // --tasks: each task over 4 ms, with the events inside it that took longest.
    tasks: tasks
      .filter((t) => t.tdur > 4000)
      .map((t) => {
        const inner = mine
          .filter((e) => e !== t && e.ts >= t.ts && e.ts < t.ts + t.dur && !TOP(e) && e.tdur > 1000)
          .map(
            (e) =>
              `${e.name}${e.args?.data?.url ? `(${e.args.data.url.split('/').pop()})` : ''}${e.args?.data?.functionName ? `[${e.args.data.functionName}]` : ''} ${ms(e.tdur).toFixed(1)}`,
          );
        return `${ms(t.ts - tasks[0].ts)
          .toFixed(0)
          .padStart(
            5,
          )} ${ms(t.tdur).toFixed(1).padStart(6)} ms ${t.ts >= fcp ? 'after-FCP' : 'before-FCP'}  ${inner.slice(0, 6).join(' | ')}`;
      }),
  };
}

async function measure(browser, server, path, signedIn) {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
  });
  if (signedIn) await context.addCookies([server.cookie]);
  const page = await context.newPage();
  await browser.startTracing(page, {
    categories: [
      'toplevel',
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'v8.execute',
      'v8',
      'loading',
      'blink.user_timing',
      '__metadata',
    ],
  });
  await page.goto(`${server.origin}${path}`, { waitUntil: 'networkidle' });
  await page.waitForTimeout(1500);
  const buffer = await browser.stopTracing();
  await context.close();
  const parsed = JSON.parse(buffer.toString());
  return summarize(parsed.traceEvents ?? parsed, server.origin);
}

const servers = [];
for (const dist of DISTS) servers.push(await startServer(dist));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
const rows = new Map();
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of PAGES) {
      const [path, signedIn] = ALL_PAGES[name];
      // Alternate which build goes first, so a load change within a round does not favour one build.
      const order = round % 2 ? [...servers].reverse() : servers;
      for (const server of order) {
        const key = `${name}\t${server.dist}`;
        const m = await measure(browser, server, path, signedIn);
        if (!rows.has(key)) rows.set(key, []);
        rows.get(key).push(m);
      }
    }
  }
} finally {
  await browser.close();
  for (const s of servers) await s.stop();
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
console.log(`load ${loadavg()[0].toFixed(1)}; median (min) of ${ROUNDS} rounds, main-thread CPU ms`);
for (const [key, ms] of rows) {
  const [name, dist] = key.split('\t');
  const f = (k) =>
    `${k} ${median(ms.map((m) => m[k])).toFixed(0)} (${Math.min(...ms.map((m) => m[k])).toFixed(0)})`;
  if (process.argv.includes('--tasks')) console.log(ms.at(-1).tasks.join('\n'));
  console.log(
    `${name.padEnd(10)} ${['cpu', 'script', 'style', 'long', 'tbt4'].map(f).join('  ')}  ${dist}${ms.every((m) => m.fcpFound) ? '' : '  (no FCP in some traces)'}`,
  );
}
