import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEnvironment, signUp } from '../support/environment-page.ts';
import { writeBracketStep, writeWaveguideStep } from '../support/geometry-files.ts';
import { facesWhere, type SurfaceMesh, uploadAndMesh } from '../support/meshed-model.ts';
import { installPythonClient, run } from '../support/python-client.ts';
import { serverAndBrowser } from '../support/stand.ts';

// Issue 38, Export as script: a set-up configured in the environment runs in the browser, is exported with
// the real button (a download) and run as a Python script with an API token against the same server: it
// gets the same quantities (and for RF the same S-parameters) as the browser's run. Copy as curl's
// commands run in bash against the same server and complete.
const stand = serverAndBrowser();
const work = mkdtempSync(join(tmpdir(), 'fieldline-export-e2e-'));
let venv: (program: string) => string;
const sh = (cmd: string, args: string[], env: Record<string, string> = {}) => run(work, cmd, args, env);

beforeAll(() => {
  venv = installPythonClient(work);
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Complex = { re: number[]; im: number[] };
type Summary = {
  job_id: string;
  quantities: Record<string, unknown>;
  frequencies_Hz?: number[];
  s_parameters?: Record<string, Complex>;
};

/** Signs up, uploads, meshes with a coarse max size; returns the page and the volume mesh it received. */
async function meshed(file: string, maxSize: number): Promise<{ page: Page; mesh: SurfaceMesh }> {
  const context = await stand.browser.newContext({
    viewport: { width: 1366, height: 900 },
    acceptDownloads: true,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stand.server.origin });
  const page = await context.newPage();
  await openEnvironment(page, stand.server.origin);
  await signUp(page);
  return { page, mesh: await uploadAndMesh(page, file, { maxSize }) };
}

/** Runs the analysis on screen and returns its job id (kept in the address). */
async function runInBrowser(page: Page, doneSelector: string): Promise<string> {
  await page.click('[data-testid=run-analysis]');
  await page.waitForSelector(doneSelector, { timeout: 240_000 });
  expect(await page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');
  const jobId = new URL(page.url().replace('#/', '')).searchParams.get('job') ?? '';
  expect(jobId).toMatch(/^[0-9a-f-]{8,}$/);
  return jobId;
}

/** A "run" token for the page's user, created with its session as the dashboard does. */
async function runToken(page: Page): Promise<Record<string, string>> {
  const created = await page.evaluate(async () => {
    const res = await fetch('/api/user/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'export-script', scope: 'run', expires_in_days: 1 }),
    });
    return { status: res.status, body: (await res.json()) as { token?: string } };
  });
  expect(created.status).toBe(201);
  return { FIELDLINE_URL: stand.server.origin, FIELDLINE_TOKEN: created.body.token ?? '' };
}

/** Exports the script with the button (a download) and returns its path and text. */
async function exportScript(page: Page): Promise<{ path: string; text: string }> {
  const downloading = page.waitForEvent('download');
  await page.click('[data-testid=export-script]');
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/_fieldline\.py$/);
  const path = join(work, download.suggestedFilename());
  await download.saveAs(path);
  return { path, text: readFileSync(path, 'utf8') };
}

/** Copy as curl's commands, from the clipboard. */
async function copyCurl(page: Page): Promise<string> {
  await page.click('[data-testid=copy-curl]');
  await expect
    .poll(() => page.textContent('[data-testid=copy-curl-status]'))
    .toMatch(/^Copied the curl commands/);
  const curl = await page.evaluate(() => navigator.clipboard.readText());
  expect(curl).toContain('Authorization: Bearer $FIELDLINE_TOKEN');
  return curl;
}

/** Runs the exported script; its last line is its JSON summary (job, quantities, S-parameters). */
function runScript(script: string, model: string, env: Record<string, string>): Summary {
  const out = sh(venv('python'), [script, model], env);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Summary;
}

/** The browser job's results read with the same client, in the script's summary shape. */
function browserSummary(jobId: string, env: Record<string, string>): Summary {
  const code = `import json, sys
from fieldline import Client
with Client() as fl:
    r = fl.job(sys.argv[1]).results()
out = {"job_id": sys.argv[1], "quantities": r.quantities}
if r.s_parameters:
    s = r.s_matrix()
    out["frequencies_Hz"] = r.frequencies.tolist()
    out["s_parameters"] = {f"S{i + 1}{j + 1}": {"re": s[:, i, j].real.tolist(), "im": s[:, i, j].imag.tolist()}
                           for i in range(s.shape[1]) for j in range(s.shape[2])}
print(json.dumps(out, default=float))`;
  return JSON.parse(sh(venv('python'), ['-c', code, jobId], env)) as Summary;
}

/** Every numeric leaf, by path, with the scale of its top-level quantity (its largest |leaf|). */
function numericLeaves(quantities: Record<string, unknown>): Map<string, { value: number; scale: number }> {
  const out = new Map<string, { value: number; scale: number }>();
  const walk = (value: unknown, path: string, into: [string, number][]) => {
    if (typeof value === 'number') into.push([path, value]);
    else if (Array.isArray(value)) for (const [i, v] of value.entries()) walk(v, `${path}[${i}]`, into);
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`, into);
  };
  for (const [key, value] of Object.entries(quantities)) {
    const leaves: [string, number][] = [];
    walk(value, key, leaves);
    const scale = Math.max(...leaves.map(([, v]) => Math.abs(v)), 1e-300);
    for (const [path, v] of leaves) out.set(path, { value: v, scale });
  }
  return out;
}

/**
 * The script's quantities against the browser's: every numeric one, each within `tolerance` of its
 * quantity's scale (a reaction's ~1e-10 N x-component next to its 500 N z is round-off, not a difference);
 * a `…_error` (already relative, e.g. reaction_balance_error ~1e-14) within `tolerance` absolutely.
 * `skip`: quantities not compared (where a maximum sits is a vertex of the mesh, so not on a new mesh).
 * Returns the largest relative difference, printed.
 */
function expectSameQuantities(
  browser: Summary,
  other: Summary,
  label: string,
  tolerance: number,
  skip?: RegExp,
): number {
  const a = numericLeaves(browser.quantities);
  const b = numericLeaves(other.quantities);
  expect(a.size).toBeGreaterThan(0);
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  let worst = 0;
  let worstPath = '';
  for (const [path, { value, scale }] of a) {
    if (skip?.test(path)) continue;
    const relative = /_error\b/.test(path) ? 1 : scale;
    const diff = Math.abs((b.get(path)?.value ?? Number.NaN) - value) / relative;
    if (!(diff <= worst)) [worst, worstPath] = [diff, path];
    expect(diff, `${label}: ${path} browser ${value} other ${b.get(path)?.value}`).toBeLessThan(tolerance);
  }
  console.log(
    `${label}: ${a.size} quantities agree with the browser's run, largest relative difference ${worst.toExponential(2)} (${worstPath})`,
  );
  return worst;
}

describe('Export as script reproduces the browser’s run', () => {
  it('structural L-bracket: bolt holes fixed, 500 N down on the upright', async () => {
    const step = writeBracketStep(stand.server.dataDir);
    const { page, mesh } = await meshed(step, 6);
    const hole = (cx: number) => (v: number[]) =>
      Math.abs(Math.hypot((v[0] ?? 0) - cx, (v[1] ?? 0) - 15) - 4) < 1e-3;
    const holes = [...facesWhere(mesh, hole(15)), ...facesWhere(mesh, hole(45))];
    const top = facesWhere(mesh, (v) => Math.abs((v[2] ?? 0) - 36) < 1e-6);
    expect(holes.length).toBeGreaterThan(8);
    expect(top.length).toBeGreaterThan(0);
    await page.click('[data-testid=physics-structural]');
    await page.click('[data-testid=add-support]');
    await page.fill('[data-testid=support-0-faces]', holes.join(', '));
    await page.click('[data-testid=add-load]');
    await page.fill('[data-testid=load-0-faces]', top.join(', '));
    expect(await page.inputValue('[data-testid=load-0-fz]')).toBe('-500');
    const jobId = await runInBrowser(page, '[data-testid=reactions]');
    const script = await exportScript(page);
    // the whole config as submitted, faces rebuilt by CAD face and named in comments, the mesh options
    expect(script.text).toContain('"analysisType": "structural"');
    expect(script.text).toMatch(
      /# \d+ faces \(whole CAD faces\): .*CAD face \d+; .*\n\s+"faces": faces_of\(\d+(, \d+)+\),/,
    );
    expect(script.text).toContain('"meshMaxSize": 6');
    expect(script.text).toContain('"von_mises"');
    const curl = await copyCurl(page);
    const env = await runToken(page);
    await page.context().close();

    const browser = browserSummary(jobId, env);
    expect(Object.keys(browser.quantities)).toContain('max_von_mises_Pa');
    // On the environment's mesh (the script's default): the same numbers, to round-off.
    const scripted = runScript(script.path, step, env);
    expect(scripted.job_id).not.toBe(jobId);
    expectSameQuantities(browser, scripted, 'bracket, script', 1e-9);
    // Meshed again from the STEP with the exported options (FIELDLINE_REMESH=1): the faces are rebuilt from
    // their CAD faces on the new mesh. The mesher need not repeat its triangulation of the holes, so this
    // agrees to the discretisation, not to round-off.
    const remeshed = runScript(script.path, step, { ...env, FIELDLINE_REMESH: '1' });
    expectSameQuantities(browser, remeshed, 'bracket, script on a new mesh', 0.02, /_location/);
    // Copy as curl's commands, in bash: on the environment's mesh, and meshing the STEP again.
    writeFileSync(join(work, 'bracket.sh'), curl);
    const curlRun = (extra: Record<string, string>): Summary => ({
      job_id: '',
      quantities: JSON.parse(
        sh('bash', ['-eo', 'pipefail', 'bracket.sh'], { ...env, MODEL: step, ...extra }),
      ),
    });
    expectSameQuantities(browser, curlRun({}), 'bracket, curl', 1e-9);
    expectSameQuantities(
      browser,
      curlRun({ FIELDLINE_REMESH: '1' }),
      'bracket, curl on a new mesh',
      0.02,
      /_location/,
    );
  });

  it('WR-90 with two TE10 wave ports at 9 and 11 GHz: the same S-parameters', async () => {
    const wg = { a: 22.86, b: 10.16, length: 25 };
    const step = writeWaveguideStep(stand.server.dataDir, wg);
    const { page, mesh } = await meshed(step, 8);
    const on = (axis: number, value: number) =>
      facesWhere(mesh, (v) => Math.abs((v[axis] ?? 0) - value) < 1e-6);
    await page.fill('[data-testid=frequency-input]', '10');
    await page.press('[data-testid=frequency-input]', 'Tab');
    await page.click('[data-testid=group-ports] .section-head');
    await page.check('[data-testid=use-wave-ports]');
    await page.click('[data-testid=add-wave-port]');
    await page.click('[data-testid=add-wave-port]');
    await page.fill('[data-testid=wave-port-0-faces]', on(2, 0).join(', '));
    await page.fill('[data-testid=wave-port-1-faces]', on(2, wg.length).join(', '));
    await page.click('[data-testid=group-sparams] .section-head');
    await page.check('[data-testid=calculate-sparams]');
    await page.fill('[data-testid=sparam-freq-min]', '9e9');
    await page.fill('[data-testid=sparam-freq-max]', '11e9');
    await page.fill('[data-testid=sparam-points]', '2');
    const jobId = await runInBrowser(page, '[data-testid=sparam-table]');
    const script = await exportScript(page);
    expect(script.text).toContain('"useWavePorts": True');
    expect(script.text).toMatch(/"faces": faces_of\(\d+\),/);
    const env = await runToken(page);
    await page.context().close();

    const browser = browserSummary(jobId, env);
    const scripted = runScript(script.path, step, env);
    expect(scripted.job_id).not.toBe(jobId);
    expect(scripted.frequencies_Hz).toEqual([9e9, 11e9]);
    expect(browser.frequencies_Hz).toEqual(scripted.frequencies_Hz);
    const names = Object.keys(browser.s_parameters ?? {}).sort();
    expect(names).toEqual(['S11', 'S12', 'S21', 'S22']);
    expect(Object.keys(scripted.s_parameters ?? {}).sort()).toEqual(names);
    let worst = 0;
    for (const name of names) {
      const s = browser.s_parameters?.[name] as Complex;
      const t = scripted.s_parameters?.[name] as Complex;
      s.re.forEach((re, k) => {
        const im = s.im[k] ?? 0;
        worst = Math.max(worst, Math.hypot((t.re[k] ?? Number.NaN) - re, (t.im[k] ?? Number.NaN) - im));
        if (name === 'S21')
          console.log(
            `WR-90 ${(browser.frequencies_Hz?.[k] ?? 0) / 1e9} GHz: S21 browser ${re.toFixed(6)}${im >= 0 ? '+' : ''}${im.toFixed(6)}j, script ${t.re[k]?.toFixed(6)}${(t.im[k] ?? 0) >= 0 ? '+' : ''}${t.im[k]?.toFixed(6)}j`,
          );
      });
    }
    console.log(`WR-90: S-matrix (4 entries × 2 frequencies) largest |ΔS| ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(1e-9);
    // |S21| ≈ 1 for a matched, lossless guide section: the runs are physical, not just equal
    const s21 = scripted.s_parameters?.S21 as Complex;
    for (const [k, re] of s21.re.entries()) expect(Math.hypot(re, s21.im[k] ?? 0)).toBeGreaterThan(0.9);
    if (Object.keys(browser.quantities).length > 0)
      expectSameQuantities(browser, scripted, 'WR-90, script', 1e-9);
  });
});
