import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { environmentPage, viewerFrame } from '../support/environment-page.ts';
import { writeBusBarStep } from '../support/geometry-files.ts';
import { facesWhere, type SurfaceMesh, uploadAndMesh } from '../support/meshed-model.ts';
import { serverAndBrowser } from '../support/stand.ts';
import { settled } from '../support/viewer-harness.ts';

/**
 * Issue 36's user paths: a copper bus bar (100 × 10 × 3 mm) with 10 mV across it, Joule heating, convection
 * around and both ends clamped. (a) One Thermal stress run: the temperature, then von Mises on the deformed
 * shape, and the clamps' reactions. (b) A thermal run, then a structural run of the same model that takes
 * that run's temperature (picked in "Temperature from"). Both are checked against the clamped bar's axial
 * force E α ΔT A (the bar is nearly isothermal, Bi ≈ 1e-4; away from the clamps it is in uniaxial stress).
 */

const OUT = resolve(import.meta.dirname, '..', 'out');
const stand = serverAndBrowser();

// copper in the material library (config/materials.yaml)
const E = 117e9;
const ALPHA = 16.5e-6;
const AREA = 10e-3 * 3e-3;
const T_REF = 293.15;
const RHO = 8960;

type Shown = {
  field: string | null;
  legend: { title: string; units: string; min: number; max: number } | null;
  deformation: { field: string | null; scale: number };
};
type Mode = { frequency: number; rigid_body: boolean };
type Done = {
  quantities?: Record<string, unknown>;
  solver_info?: Record<string, unknown>;
  fields?: Record<string, { data: number[] }>;
  animation?: { data: Record<string, number[]>[]; frame_values?: number[] };
  modes?: Mode[];
} & Partial<SurfaceMesh> & {
    tetrahedra?: unknown;
  };

/** A new user with the bus bar meshed; `done` collects every completed job's results as they arrive. */
async function busBarReady(): Promise<{ page: Page; frame: Frame; mesh: SurfaceMesh; done: Done[] }> {
  const page = await environmentPage(stand);
  const frame = await viewerFrame(page);
  const done: Done[] = [];
  page.on('response', async (res) => {
    if (!res.url().includes('/api/fea/status/')) return;
    const body = (await res.json().catch(() => null)) as { status?: string; results?: Done } | null;
    if (body?.status === 'completed' && body.results) done.push(body.results);
  });
  const mesh = await uploadAndMesh(page, writeBusBarStep(stand.server.dataDir), { timeout: 240_000 });
  // the meshing job's results are in `done` before any run counts on its length
  await expect.poll(() => done.some((d) => d.tetrahedra)).toBe(true);
  return { page, frame, mesh, done };
}

const jobInUrl = (page: Page): string => {
  const job = new URL(page.url().replace('#/', '')).searchParams.get('job') ?? '';
  expect(job).toMatch(/^[0-9a-f-]{36}$/);
  return job;
};

/** Runs the form and waits for this run's results (fails fast when the run fails). */
async function runToCompletion(page: Page, done: Done[]) {
  const before = done.length;
  await page.click('[data-testid=run-analysis]');
  await expect
    .poll(async () => (await page.textContent('[data-testid=status-chip]')) ?? '', { timeout: 400_000 })
    .toMatch(/FEA: (completed|failed)/);
  expect(await page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');
  await expect.poll(() => done.length).toBeGreaterThan(before);
}

const ends = (mesh: SurfaceMesh) => {
  const end = (x: number) => facesWhere(mesh, (v) => Math.abs((v[0] ?? 0) - x) < 1e-6);
  return { a: end(0), b: end(100) };
};

/** Copper, 0 V and 10 mV on the two ends with Joule heating, h = 10 W/(m²·K) at 20 °C on the long faces. */
async function heatedBusBar(page: Page, mesh: SurfaceMesh) {
  const { a, b } = ends(mesh);
  await page.click('[data-testid=group-body-materials] .section-head');
  await page.selectOption('#body-material-0', 'copper');
  await page.click('[data-testid=group-heat-sources] .section-head');
  await page.getByLabel('Joule heating from the current (DC conduction solve)').check();
  for (const [i, faces, volts] of [
    [0, a, '0'],
    [1, b, '0.01'],
  ] as const) {
    await page.click('[data-testid=add-dirichlet-group]');
    await page.fill(`[data-testid=dirichlet-group-${i}-faces]`, faces.join(', '));
    await page.fill(`[data-testid=dirichlet-group-${i}-voltage]`, volts);
  }
  const long = mesh.faces.map((_, i) => i + 1).filter((id) => !a.includes(id) && !b.includes(id));
  await page.click('[data-testid=add-thermal-condition]');
  await page.fill('[data-testid=thermal-condition-0-faces]', long.join(', '));
  await page.fill('[data-testid=thermal-condition-0-value]', '10');
  await page.fill('[data-testid=thermal-condition-0-ambient]', '293.15');
}

/** Both ends clamped (every component fixed). */
async function clampedEnds(page: Page, mesh: SurfaceMesh) {
  const { a, b } = ends(mesh);
  for (const [i, faces] of [
    [0, a],
    [1, b],
  ] as const) {
    await page.click('[data-testid=add-support]');
    await page.fill(`[data-testid=support-${i}-faces]`, faces.join(', '));
  }
}

const shownIn = (frame: Frame) => () =>
  frame.evaluate(() =>
    (window as unknown as { fieldlineViewer: { shown: () => Shown } }).fieldlineViewer.shown(),
  );

type Reaction = { support: string; reaction_N: [number, number, number] };

/** The clamps' axial reactions against E α ΔT A; returns the relative error. */
function checkReactions(label: string, q: Record<string, unknown>, maxTemperature: number): number {
  const reactions = q.reactions as Reaction[];
  expect(reactions.length).toBe(2);
  const [ra, rb] = reactions.map((r) => r.reaction_N[0]) as [number, number];
  const expected = E * ALPHA * (maxTemperature - T_REF) * AREA;
  const error = Math.abs(Math.abs(ra) - expected) / expected;
  console.log(
    `${label}: T max ${maxTemperature.toFixed(2)} K, clamp reactions Fx ${ra.toFixed(1)} / ${rb.toFixed(1)} N, E α ΔT A = ${expected.toFixed(1)} N (error ${(error * 100).toFixed(2)} %), max von Mises ${((q.max_von_mises_Pa as number) / 1e6).toFixed(1)} MPa`,
  );
  // a thermal load applies no net force: the clamps balance each other
  expect(Math.abs(ra + rb)).toBeLessThan(1e-3 * Math.abs(ra));
  expect(error).toBeLessThan(0.05);
  return error;
}

describe('coupled and chained physics from the environment (issue 36)', () => {
  it('thermal stress: a heated, clamped bus bar shows its temperature, then von Mises on the deformed shape, and the clamp reactions', async () => {
    const { page, frame, mesh, done } = await busBarReady();
    await page.click('[data-testid=physics-thermal-stress]');
    // the coupled run is steady: no transient switch
    expect(await page.$('[data-testid=group-thermal-transient]')).toBeNull();
    await heatedBusBar(page, mesh);
    await clampedEnds(page, mesh);
    await page.click('[data-testid=run-analysis]');
    await page.waitForSelector('[data-testid=reactions]', { timeout: 400_000 });
    expect(await page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');
    expect(await page.$('[data-testid=heat-flows]')).not.toBeNull();

    const shown = shownIn(frame);
    await settled(frame);
    const options = await page.$$eval('[data-testid=field-mode] option', (els) =>
      els.map((e) => e.textContent ?? ''),
    );
    expect(options).toEqual(expect.arrayContaining(['Temperature (K)', 'Von Mises stress (Pa)']));
    // first the temperature, on the deformed shape
    await page.selectOption('[data-testid=field-mode]', { label: 'Temperature (K)' });
    await expect.poll(async () => (await shown()).legend?.title).toBe('Temperature');
    const hot = await shown();
    expect(hot.legend?.units).toBe('K');
    expect(hot.deformation.field).toBe('displacement');
    mkdirSync(OUT, { recursive: true });
    await page.screenshot({ path: join(OUT, 'coupled-busbar-temperature.png') });
    // then von Mises
    await page.selectOption('[data-testid=field-mode]', { label: 'Von Mises stress (Pa)' });
    await expect.poll(async () => (await shown()).legend?.title).toBe('Von Mises stress');
    const stressed = await shown();
    expect(stressed.deformation.field).toBe('displacement');
    expect(stressed.deformation.scale).toBeGreaterThan(1);
    await page.screenshot({ path: join(OUT, 'coupled-busbar-von-mises.png') });

    // the summary names both families' quantities; the clamps' reactions are listed
    const summary = (await page.textContent('[data-testid=quantities]')) ?? '';
    expect(summary).toMatch(/Max temperature\s*[\d.]+ K/);
    expect(summary).toMatch(/von Mises/i);
    expect(await page.$$('[data-testid=reactions] tbody tr[data-testid^=reaction-]')).toHaveLength(2);
    const q = done.at(-1)?.quantities as Record<string, unknown>;
    checkReactions('thermal stress (one job)', q, q.max_temperature_K as number);
    await page.context().close();
  });

  it('chained: a structural run takes the temperature of a thermal run picked in "Temperature from"', async () => {
    const { page, mesh, done } = await busBarReady();
    await page.click('[data-testid=physics-thermal]');
    await heatedBusBar(page, mesh);
    await page.click('[data-testid=run-analysis]');
    await page.waitForSelector('[data-testid=heat-flows]', { timeout: 400_000 });
    const thermalJob = new URL(page.url().replace('#/', '')).searchParams.get('job');
    expect(thermalJob).toMatch(/^[0-9a-f-]{36}$/);
    const thermal = done.at(-1)?.quantities as Record<string, unknown>;
    const maxTemperature = thermal.max_temperature_K as number;

    await page.click('[data-testid=physics-structural]');
    await clampedEnds(page, mesh);
    await page.click('[data-testid=group-structural-temperature] .section-head');
    await page.selectOption('[data-testid=structural-temperature-from]', 'job');
    const picker = '[data-testid=structural-temperature-source-job]';
    // the thermal run is listed by its analysis, date and peak temperature
    await expect
      .poll(() => page.$$eval(`${picker} option`, (els) => els.map((e) => e.getAttribute('value'))), {
        timeout: 30_000,
      })
      .toContain(thermalJob);
    const label = await page.$eval(`${picker} option[value="${thermalJob}"]`, (e) => e.textContent);
    expect(label).toContain(`max ${maxTemperature.toFixed(1)} K`);
    await page.selectOption(picker, thermalJob!);
    await page.click('[data-testid=run-analysis]');
    await expect
      .poll(async () => (await page.textContent('[data-testid=status-chip]')) ?? '', { timeout: 400_000 })
      .toMatch(/FEA: (completed|failed)/);
    expect(await page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');
    await page.waitForSelector('[data-testid=reactions]', { timeout: 30_000 });
    const result = done.at(-1)!;
    const chained = (result.solver_info?.fields_from as Record<string, { job_id: string }>)?.temperature;
    expect(chained?.job_id).toBe(thermalJob);
    checkReactions('structural chained from the thermal job', result.quantities!, maxTemperature);
    mkdirSync(OUT, { recursive: true });
    await page.screenshot({ path: join(OUT, 'chained-busbar.png') });
    await page.context().close();
  });

  it('chained: a transient starts from a steady thermal run picked in "Initial temperature from"', async () => {
    const { page, mesh, done } = await busBarReady();
    await page.click('[data-testid=physics-thermal]');
    await heatedBusBar(page, mesh);
    await page.click('[data-testid=run-analysis]');
    await page.waitForSelector('[data-testid=heat-flows]', { timeout: 400_000 });
    const steadyJob = jobInUrl(page);
    const steady = done.at(-1)!;
    const steadyT = steady.fields?.temperature?.data ?? [];
    expect(steadyT.length).toBe(mesh.vertices.length);

    // the current is switched off: from the steady state the bar cools towards the ambient
    await page.getByLabel('Joule heating from the current (DC conduction solve)').uncheck();
    await page.click('[data-testid=group-thermal-transient] .section-head');
    await page.getByLabel('Transient (temperature over time)').check();
    await page.selectOption('[data-testid=thermal-initial-from]', 'job');
    const picker = '[data-testid=thermal-initial-source-job]';
    await expect
      .poll(() => page.$$eval(`${picker} option`, (els) => els.map((e) => e.getAttribute('value'))), {
        timeout: 30_000,
      })
      .toContain(steadyJob);
    await page.selectOption(picker, steadyJob);
    await page.getByLabel('Time step', { exact: true }).fill('60');
    await page.getByLabel('End time', { exact: true }).fill('600');
    await runToCompletion(page, done);
    const transient = done.at(-1)!;
    const frames = transient.animation?.data ?? [];
    expect(transient.animation?.frame_values?.[0]).toBe(0);
    const first = frames[0]?.temperature ?? [];
    expect(first.length).toBe(steadyT.length);
    const difference = Math.max(...first.map((t, i) => Math.abs(t - (steadyT[i] ?? Number.NaN))));
    const source = (transient.solver_info?.fields_from as Record<string, { job_id: string }>)?.temperature;
    const peak = (f: Record<string, number[]> | undefined) => Math.max(...(f?.temperature ?? []));
    console.log(
      `transient from steady ${steadyJob}: max |T(t=0) − T_steady| = ${difference.toExponential(2)} K over ${first.length} vertices; peak ${peak(frames[0]).toFixed(3)} K at t = 0, ${peak(frames.at(-1)).toFixed(3)} K at ${transient.animation?.frame_values?.at(-1)} s`,
    );
    expect(difference).toBeLessThanOrEqual(1e-12);
    expect(source?.job_id).toBe(steadyJob);
    // without the current the bar cools
    expect(peak(frames.at(-1))).toBeLessThan(peak(frames[0]));
    await page.context().close();
  });

  it('chained: a modal run prestressed by a structural run picked in "Prestress from" rises as the closed form says', async () => {
    // Pinned–pinned in bending (u_y = u_z = 0 on both end faces, rotation free) and pulled by P = P_cr:
    // f_n(P) = f_n(0) √(1 + P L²/(n² π² E I)), so the first (thin-direction) bending mode rises by √2.
    const { page, mesh, done } = await busBarReady();
    const { a, b } = ends(mesh);
    const length = 0.1;
    const inertia = (10e-3 * 3e-3 ** 3) / 12;
    const pCritical = (Math.PI ** 2 * E * inertia) / length ** 2;
    const P = Math.round(pCritical);
    await page.click('[data-testid=physics-structural]');
    await page.click('[data-testid=group-body-materials] .section-head');
    await page.selectOption('#body-material-0', 'copper');
    // the tension run: one end held, the other pulled (a face takes a support or a load, not both)
    const support = async (i: number, faces: number[], u: string[]) => {
      await page.click('[data-testid=add-support]');
      await page.fill(`[data-testid=support-${i}-faces]`, faces.join(', '));
      await page.selectOption(`[data-testid=support-${i}-kind]`, 'displacement');
      for (const [k, axis] of ['x', 'y', 'z'].entries())
        await page.locator(`[data-testid=support-${i}]`).getByLabel(`u${axis}`, { exact: true }).fill(u[k]!);
    };
    await support(0, a, ['0', '0', '0']);
    await page.click('[data-testid=add-load]');
    await page.fill('[data-testid=load-0-faces]', b.join(', '));
    await page.fill('[data-testid=load-0-fx]', String(P));
    await page.fill('[data-testid=load-0-fy]', '0');
    await page.fill('[data-testid=load-0-fz]', '0');
    await runToCompletion(page, done);
    await page.waitForSelector('[data-testid=reactions]', { timeout: 30_000 });
    const structuralJob = jobInUrl(page);
    const axial = done.at(-1)?.quantities?.reactions as Reaction[];
    console.log(
      `tension run: P = ${P} N, reaction Fx ${axial.map((r) => r.reaction_N[0].toFixed(1)).join(' / ')} N`,
    );

    // the modes: pinned at both ends (u_x free at the held end too: the sections rotate; the bar's axial
    // rigid motion is a labelled 0 Hz mode)
    await page.click('[data-testid=physics-vibration]');
    await page.locator('[data-testid=support-0]').getByLabel('ux', { exact: true }).fill('');
    await support(1, b, ['', '0', '0']);
    const modalRun = async () => {
      await runToCompletion(page, done);
      await page.waitForSelector('[data-testid=vibration-modes]', { timeout: 30_000 });
      return done.at(-1)!;
    };
    const firstElastic = (r: Done) => (r.modes ?? []).find((m) => !m.rigid_body)?.frequency ?? Number.NaN;
    const unstressed = await modalRun();

    await page.click('[data-testid=group-prestress] .section-head');
    await page.selectOption('[data-testid=vibration-prestress]', 'job');
    const picker = '[data-testid=vibration-prestress-source-job]';
    await expect
      .poll(() => page.$$eval(`${picker} option`, (els) => els.map((e) => e.getAttribute('value'))), {
        timeout: 30_000,
      })
      .toContain(structuralJob);
    await page.selectOption(picker, structuralJob);
    const prestressed = await modalRun();

    const f0 = firstElastic(unstressed);
    const fP = firstElastic(prestressed);
    const expected = Math.sqrt(1 + (P * length ** 2) / (Math.PI ** 2 * E * inertia));
    const error = Math.abs(fP / f0 - expected) / expected;
    // f_1(0) = (π / 2L²) √(EI / ρA), Euler–Bernoulli
    const f0Exact = (Math.PI / (2 * length ** 2)) * Math.sqrt((E * inertia) / (RHO * AREA));
    const f0Error = Math.abs(f0 / f0Exact - 1);
    const source = (prestressed.solver_info?.fields_from as Record<string, { job_id: string }>)?.stress;
    console.log(
      `prestress from ${structuralJob}: f1 ${f0.toFixed(2)} Hz unstressed (Euler–Bernoulli ${f0Exact.toFixed(2)} Hz, error ${(f0Error * 100).toFixed(2)} %) → ${fP.toFixed(2)} Hz under ${P} N; ratio ${(fP / f0).toFixed(4)} vs √(1 + PL²/(π²EI)) = ${expected.toFixed(4)} (error ${(error * 100).toFixed(2)} %)`,
    );
    expect(source?.job_id).toBe(structuralJob);
    expect(prestressed.quantities?.prestress_effect).toBe('raised');
    expect(fP).toBeGreaterThan(f0);
    expect(f0Error).toBeLessThan(0.02);
    expect(error).toBeLessThan(0.015);
    await page.context().close();
  });
});
