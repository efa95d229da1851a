// A ≈ 1 M-unknown full-wave job through the UI, as a newcomer runs it (issue 19): start the app with
// `npm start` on its embedded default (or use --origin), upload a WR-90 section as STEP in Chromium, mesh
// it, set two TE10 ports and an S-parameter sweep, read the estimate shown beside Run, run it, and check
// that it completes with S-parameters and |E| in the viewer. While it runs the engine process's VmPeak
// (the address space JOB_MEMORY_LIMIT_MB caps), VmHWM and CPU time are sampled from /proc.
//
//   flock /tmp/fieldline-bigmem.lock node bench/scale/ui-1m.mjs [--maxh 1.0] [--length 100] [--points 3]
//        [--mesh-only] [--origin http://localhost:PORT --data-dir DIR] [--shots DIR]
//
// Not part of `npm test` (it needs ≈ 5 GB and minutes of two cores). Writes bench/scale/out/ui-1m.json.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(import.meta.dirname, 'out');
const C0 = 299_792_458;
const { values: opt } = parseArgs({
  options: {
    maxh: { type: 'string', default: '1.0' },
    length: { type: 'string', default: '100' },
    points: { type: 'string', default: '3' },
    'mesh-only': { type: 'boolean', default: false },
    origin: { type: 'string' },
    'data-dir': { type: 'string' },
    shots: { type: 'string' },
  },
});
const wg = { a: 22.86, b: 10.16, length: Number(opt.length) };
const points = Number(opt.points);
const log = (...a) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...a);

async function freePort() {
  return new Promise((res) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

/** `npm start` (install check, web build when its sources changed, migrate, serve) on a fresh data dir. */
async function startApp() {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldline-ui1m-'));
  const origin = `http://localhost:${port}`;
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, PUBLIC_ORIGIN: origin, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true, // its own process group, so stopping it stops the server and its engines
  });
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    if (Date.now() - t0 > 15 * 60_000) throw new Error('the app did not start in 15 min');
    const up = await fetch(`${origin}/api/docs`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  log(`app up at ${origin} after ${((Date.now() - t0) / 1000).toFixed(0)} s (data ${dataDir})`);
  return {
    origin,
    dataDir,
    stop: async () => {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function writeWaveguideStep(dir) {
  const path = join(dir, 'wr90.step');
  const script = `
import gmsh, sys
gmsh.initialize(); gmsh.option.setNumber('General.Terminal', 0)
gmsh.option.setString('Geometry.OCCTargetUnit', 'MM')
gmsh.model.add('wr90')
gmsh.model.occ.addBox(0, 0, 0, ${wg.a}, ${wg.b}, ${wg.length})
gmsh.model.occ.synchronize()
gmsh.write(sys.argv[1])
gmsh.finalize()
`;
  execFileSync(join(ROOT, '.venv/bin/python'), ['-c', script, path], { stdio: 'pipe' });
  return path;
}

/**
 * Samples the engine processes under `dataDir` (their --job dir is in it) every 0.5 s: the largest VmPeak
 * and VmHWM seen, and each process's last CPU time (user + system, all threads).
 */
function watchEngines(dataDir) {
  const seen = new Map();
  const tick = () => {
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        if (!cmd.includes('fieldline_engine') || !cmd.some((a) => a.startsWith(dataDir))) continue;
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        const cpu = (Number(stat[11]) + Number(stat[12])) / 100; // utime + stime in USER_HZ ticks
        const prev = seen.get(pid) ?? { command: cmd[cmd.indexOf('fieldline_engine') + 1], t0: Date.now() };
        seen.set(pid, {
          ...prev,
          vmPeakGb: Math.max(prev.vmPeakGb ?? 0, (kb('VmPeak') * 1024) / 1e9),
          vmHwmGb: Math.max(prev.vmHwmGb ?? 0, (kb('VmHWM') * 1024) / 1e9),
          cpuS: cpu,
          wallS: (Date.now() - prev.t0) / 1000,
        });
      } catch {
        // the process ended between the listing and the read
      }
    }
  };
  const timer = setInterval(tick, 500);
  return {
    stop: () => {
      clearInterval(timer);
      return [...seen.entries()].map(([pid, s]) => ({ pid: Number(pid), ...s }));
    },
  };
}

/** 1-based ids of surface faces whose vertices all lie on coordinate[axis] = value (mm). */
const facesOnPlane = (mesh, axis, value) =>
  mesh.faces.flatMap((f, i) =>
    f.every((k) => Math.abs((mesh.vertices[k]?.[axis] ?? Number.NaN) - value) < 1e-6) ? [i + 1] : [],
  );

/** −βL of TE10 in degrees, folded into (−180, 180]. */
function closedFormPhase(f) {
  const k0 = (2 * Math.PI * f) / C0;
  const beta = Math.sqrt(k0 ** 2 - (Math.PI / (wg.a * 1e-3)) ** 2);
  const d = ((((-beta * wg.length * 1e-3 * 180) / Math.PI) % 360) + 360) % 360;
  return d > 180 ? d - 360 : d;
}

const app = opt.origin ? { origin: opt.origin, dataDir: opt['data-dir'] ?? '/', stop: async () => {} } : null;
const server = app ?? (await startApp());
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
  ],
});
const report = { when: new Date().toISOString(), maxhMm: Number(opt.maxh), waveguide: wg, points };
try {
  const page = await (
    await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true })
  ).newPage();
  let volume = null;
  page.on('response', async (res) => {
    if (!res.url().includes('/api/fea/status/')) return;
    const body = await res.json().catch(() => null);
    if (body?.status === 'completed' && body.results?.tetrahedra && !volume) volume = body.results;
  });
  await page.goto(`${server.origin}/#/environment`);
  await page.waitForSelector('[data-testid=status-chip]');
  const registered = await page.evaluate(async (tag) => {
    const res = await fetch('/api/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Scale Bench',
        email: `scale.${tag}@analytical-engines.com`,
        username: `scale_${tag}`.slice(0, 20),
        password: 'correct horse battery staple',
        acceptedTerms: true,
      }),
    });
    return res.status;
  }, Date.now().toString(36));
  if (registered !== 201 && registered !== 200) throw new Error(`registration: HTTP ${registered}`);
  // the viewer's messages: the |E| field it is sent (again after a reload)
  const recordViewer = async () => {
    const frame = await (async () => {
      for (let i = 0; i < 100; i++) {
        const f = page.frames().find((fr) => fr.url().includes('/viewer.html'));
        if (f) return f;
        await page.waitForTimeout(100);
      }
      throw new Error('viewer iframe not found');
    })();
    await frame.waitForLoadState('load');
    await frame.evaluate(() => {
      window.__fields = [];
      window.addEventListener('message', (e) => {
        const ef = e.data?.fields?.electric_field;
        if (e.data?.type === 'load-mesh' && ef) {
          const width = ef.kind === 'vector' ? 3 : 1;
          let peak = 0;
          for (let i = 0; i < ef.values.length / width; i++) {
            let sum = 0;
            for (let c = 0; c < width; c++)
              sum += ef.values[i * width + c] ** 2 + (ef.imag?.[i * width + c] ?? 0) ** 2;
            peak = Math.max(peak, Math.sqrt(sum));
          }
          window.__fields.push({ vertices: ef.values.length / width, peakE: peak });
        }
      });
    });
    return frame;
  };
  let frame = await recordViewer();

  const scratch = mkdtempSync(join(tmpdir(), 'ui1m-step-'));
  await page.setInputFiles('[data-testid=file-input]', writeWaveguideStep(scratch));
  await page.waitForSelector('[data-testid=surface-mesh-card]', { timeout: 120_000 });
  await page.click('.mesh-options summary');
  await page.fill('[data-testid=mesh-max-size]', opt.maxh);
  let t = Date.now();
  await page.click('[data-testid=generate-volume-mesh]');
  await page.waitForSelector('[data-testid=config-form]', { timeout: 20 * 60_000 });
  for (let i = 0; !volume && i < 600; i++) await page.waitForTimeout(100);
  if (!volume) throw new Error('no volume mesh in the status replies');
  report.meshWallS = (Date.now() - t) / 1000;
  report.tetrahedra = volume.tetrahedra.length;
  report.vertices = volume.vertices.length;
  log(
    `volume mesh: ${report.tetrahedra} tets, ${report.vertices} vertices in ${report.meshWallS.toFixed(0)} s`,
  );

  await page.fill('[data-testid=frequency-input]', '10');
  await page.press('[data-testid=frequency-input]', 'Tab');
  await page.click('[data-testid=group-curved] .section-head');
  await page.selectOption('[data-testid=mesh-order]', '2');
  await page.click('[data-testid=group-ports] .section-head');
  await page.check('[data-testid=use-wave-ports]');
  await page.click('[data-testid=add-wave-port]');
  await page.click('[data-testid=add-wave-port]');
  await page.fill('[data-testid=wave-port-0-faces]', facesOnPlane(volume, 2, 0).join(', '));
  await page.fill('[data-testid=wave-port-1-faces]', facesOnPlane(volume, 2, wg.length).join(', '));
  await page.click('[data-testid=group-sparams] .section-head');
  await page.check('[data-testid=calculate-sparams]');
  await page.fill('[data-testid=sparam-freq-min]', points > 1 ? '9e9' : '10e9');
  await page.fill('[data-testid=sparam-freq-max]', points > 1 ? '11e9' : '10e9');
  await page.fill('[data-testid=sparam-points]', String(points));
  await page.selectOption('[data-testid=sparam-sweep-type]', 'uniform');
  // the linear solver stays on the form's default ("auto"): the engine picks the path by size and memory
  report.estimateShown = (await page.textContent('[data-testid=run-estimate]')) ?? '';
  log(`estimate beside Run: ${report.estimateShown}`);
  if (opt.shots) await page.screenshot({ path: join(opt.shots, 'ui-1m-before-run.png') });
  if (opt['mesh-only']) {
    log(JSON.stringify(report));
  } else {
    const watch = watchEngines(server.dataDir);
    t = Date.now();
    const cpu0 = process.cpuUsage();
    await page.click('[data-testid=run-analysis]');
    // done when the job ends, or at once when the server refuses it (the error box under Run). The page
    // stops watching after spec 001 §9's 300 s ("Analysis timed out after 300 seconds. The job may still be
    // running on the server."); the job goes on, and a reload picks its watch up again, as a user would.
    report.uiTimeouts = 0;
    for (;;) {
      await page.waitForFunction(
        () =>
          /FEA: (completed|failed)/.test(
            document.querySelector('[data-testid=status-chip]')?.textContent ?? '',
          ) || document.querySelector('[data-testid=analysis-error]'),
        undefined,
        { timeout: 3600_000, polling: 1000 },
      );
      const shown = await page
        .locator('[data-testid=analysis-error]')
        .textContent()
        .catch(() => null);
      if (!shown || !/timed out after 300 seconds/.test(shown) || report.uiTimeouts >= 20) break;
      report.uiTimeouts++;
      log(`the page gave up after 300 s (${report.uiTimeouts}): reloading to watch the job again`);
      if (opt.shots && report.uiTimeouts === 1)
        await page.screenshot({ path: join(opt.shots, 'ui-1m-timed-out.png') });
      await page.reload();
      await page.waitForSelector('[data-testid=status-chip]');
      frame = await recordViewer();
    }
    report.runWallS = (Date.now() - t) / 1000;
    report.engines = watch.stop();
    report.scriptCpuS = process.cpuUsage(cpu0).user / 1e6;
    report.status = await page.textContent('[data-testid=status-chip]');
    report.loadAvg = loadavg();
    log(`${report.status} after ${report.runWallS.toFixed(0)} s; engines ${JSON.stringify(report.engines)}`);
    if (report.status !== 'FEA: completed') {
      report.error = await page
        .locator('[data-testid=analysis-error], [data-testid=right-panel]')
        .first()
        .textContent()
        .catch(() => null);
      if (opt.shots) await page.screenshot({ path: join(opt.shots, 'ui-1m-refused.png') });
      throw new Error(`the run did not complete: ${report.error}`);
    }
    await page.waitForSelector('[data-testid=sparam-table]', { timeout: 60_000 });
    report.solverInfo = await page.locator('[data-testid=solver-info] tr').allTextContents();
    const rows = await page
      .locator('[data-testid=sparam-table] tbody tr')
      .evaluateAll((trs) =>
        trs.map((r) => Array.from(r.querySelectorAll('td'), (td) => td.textContent ?? '')),
      );
    // Touchstone: the exact values behind the table
    const downloading = page.waitForEvent('download');
    await page.click('[data-testid=download-touchstone]');
    const s2p = readFileSync(await (await downloading).path(), 'utf8');
    report.sParameters = s2p
      .split('\n')
      .map((l) => l.replace(/!.*/, '').trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => {
        const v = l.split(/\s+/).map(Number);
        const s21 = { re: v[3], im: v[4] };
        const phase = (Math.atan2(s21.im, s21.re) * 180) / Math.PI;
        return {
          f: v[0],
          absS21: Math.hypot(s21.re, s21.im),
          s11Db: 20 * Math.log10(Math.hypot(v[1], v[2])),
          s21PhaseDeg: phase,
          closedFormDeg: closedFormPhase(v[0]),
        };
      });
    report.tableRows = rows.length;
    for (let i = 0; i < 300; i++) {
      report.viewer = (await frame.evaluate(() => window.__fields)).at(-1);
      if (report.viewer) break;
      await page.waitForTimeout(200);
    }
    if (opt.shots) await page.screenshot({ path: join(opt.shots, 'ui-1m-after-run.png') });
    log(JSON.stringify(report, null, 1));
    if (!report.viewer) throw new Error('the viewer was sent no |E| field');
  }
  rmSync(scratch, { recursive: true, force: true });
} finally {
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'ui-1m.json'), JSON.stringify(report, null, 1));
  await browser.close();
  await server.stop();
}
