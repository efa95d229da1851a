// Lighthouse 12.2.3 (mobile and desktop presets) on the landing, login, dashboard and billing pages of
// the built web app, served by the real server on a fresh data dir; the signed-in pages with a session
// cookie of an account registered through the API. Scores to out/results.json and a table on stdout.
//   node bench/web/run.mjs [--runs N] [--pages landing,login,…] [--presets mobile|desktop] [--save-lhr]   (Chromium: /usr/bin/chromium or $CHROMIUM_PATH)
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { registerBenchUser, waitForServer } from './bench-account.mjs';

const HERE = import.meta.dirname;
const ROOT = resolve(HERE, '..', '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 1;
const pagesArg = process.argv.indexOf('--pages');
const ONLY = pagesArg > 0 ? process.argv[pagesArg + 1].split(',') : null;
const presetsArg = process.argv.indexOf('--presets');
const ONLY_PRESETS = presetsArg > 0 ? process.argv[presetsArg + 1].split(',') : null;
// --save-lhr: also write each run's full Lighthouse report (LCP element, request chains, traces of work).
const SAVE_LHR = process.argv.includes('--save-lhr');

// Lighthouse lives in this folder's own package (13 wants Node 22: pinned to 12.2.3).
if (!existsSync(join(HERE, 'node_modules', 'lighthouse'))) {
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: HERE, stdio: 'inherit' });
}
if (!existsSync(join(ROOT, 'web', 'dist', 'index.html'))) {
  execFileSync('npm', ['run', 'build', '-w', 'web'], { cwd: ROOT, stdio: 'inherit' });
}
const { default: lighthouse } = await import('lighthouse');
const { default: desktopConfig } = await import('lighthouse/core/config/desktop-config.js');
const chromeLauncher = await import('chrome-launcher');

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

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'fieldline-bench-web-'));
const origin = `http://localhost:${port}`;
const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts', 'serve'], {
  cwd: ROOT,
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, PUBLIC_ORIGIN: origin, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
await waitForServer(origin, 60_000);
const cookie = await registerBenchUser(origin, 'bench');

const PAGES = [
  ['landing', '/', false],
  ['login', '/#/userdatabase/Login', false],
  ['dashboard', '/#/dashboard', true],
  ['billing', '/#/billing', true],
];
const PRESETS = [
  ['mobile', undefined],
  ['desktop', desktopConfig],
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
});
const results = [];
try {
  for (const [page, path, signedIn] of PAGES.filter(([name]) => !ONLY || ONLY.includes(name))) {
    for (const [preset, config] of PRESETS.filter(([name]) => !ONLY_PRESETS || ONLY_PRESETS.includes(name))) {
      for (let run = 0; run < RUNS; run++) {
        const flags = {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: CATEGORIES,
          ...(signedIn ? { extraHeaders: { Cookie: cookie } } : {}),
        };
        // The machine is shared: the 1-minute load average beside each figure says how much to trust its TBT.
        const loadBefore = loadavg()[0];
        // A run whose trace came back broken (NO_NAVSTART, seen on this loaded machine with either build)
        // measured nothing: it is repeated, up to twice.
        let { lhr } = await lighthouse(`${origin}${path}`, flags, config);
        for (let retry = 0; lhr.runtimeError && retry < 2; retry++) {
          console.log(`${page} ${preset}: ${lhr.runtimeError.code}, run again`);
          ({ lhr } = await lighthouse(`${origin}${path}`, flags, config));
        }
        const load = Math.round(Math.max(loadBefore, loadavg()[0]) * 10) / 10;
        const scores = Object.fromEntries(CATEGORIES.map((c) => [c, lhr.categories[c]?.score ?? null]));
        const audits = lhr.audits;
        const failing = Object.values(audits)
          .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
          .map((a) => `${a.id} (${a.score})`);
        const row = {
          page,
          preset,
          run,
          finalUrl: lhr.finalDisplayedUrl,
          scores,
          fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? 0),
          lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
          tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
          cls: audits['cumulative-layout-shift']?.numericValue ?? 0,
          transferBytes: audits['total-byte-weight']?.numericValue ?? 0,
          load,
          failing,
          // Where the main-thread time goes (script evaluation per file, style/layout…).
          bootup: (audits['bootup-time']?.details?.items ?? []).map((i) => ({
            url: i.url,
            totalMs: Math.round(i.total),
            scriptingMs: Math.round(i.scripting),
          })),
          mainThread: (audits['mainthread-work-breakdown']?.details?.items ?? []).map((i) => ({
            group: i.groupLabel ?? i.group,
            ms: Math.round(i.duration),
          })),
          // What the console/issues and layout-shift audits point at, to act on.
          issues: audits['inspector-issues']?.details?.items ?? [],
          shifts: (audits['layout-shifts']?.details?.items ?? []).map((i) => ({
            score: i.score,
            node: i.node?.snippet,
          })),
        };
        results.push(row);
        if (SAVE_LHR) {
          mkdirSync(join(HERE, 'out'), { recursive: true });
          writeFileSync(join(HERE, 'out', `lhr-${page}-${preset}-${run}.json`), JSON.stringify(lhr));
        }
        console.log(
          `${page.padEnd(10)} ${preset.padEnd(8)} load ${load.toFixed(1).padStart(4)}  perf ${scores.performance} a11y ${scores.accessibility} bp ${scores['best-practices']} seo ${scores.seo}  FCP ${row.fcpMs} ms LCP ${row.lcpMs} ms TBT ${row.tbtMs} ms  ${Math.round(row.transferBytes / 1000)} kB${failing.length ? `  below 0.9: ${failing.join(', ')}` : ''}`,
        );
      }
    }
  }
} finally {
  chrome.kill();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}

mkdirSync(join(HERE, 'out'), { recursive: true });
writeFileSync(
  join(HERE, 'out', 'results.json'),
  `${JSON.stringify({ lighthouse: '12.2.3', date: new Date().toISOString(), results }, null, 2)}\n`,
);
console.log(`wrote ${join(HERE, 'out', 'results.json')}`);
