import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { capacitorMeshFile, loadCapacitorTerminals } from '../support/capacitor-model.ts';
import { environmentPage } from '../support/environment-page.ts';
import { serverAndBrowser } from '../support/stand.ts';

/**
 * Issue 37's remaining study paths on the small capacitor mesh (5 × 5 × 1 mm box, plates at z = 0 and 1 mm,
 * real engine): a per-component vector sweep from the form's Sweep link, and the animated difference A − B
 * of two points of a study whose results have frames.
 */
const EPS0 = 8.8541878128e-12;
const stand = serverAndBrowser();

/** Waits until every row of the study table is completed; returns the CSV's rows (header first). */
async function completedTable(page: Page, points: number): Promise<string[][]> {
  await page.waitForSelector('[data-testid=study-table]', { timeout: 60_000 });
  const states = () =>
    page.$$eval('[data-testid=study-row]', (rows) => rows.map((r) => r.getAttribute('data-status')));
  await expect
    .poll(async () => (await states()).filter((s) => s === 'completed' || s === 'failed').length, {
      timeout: 120_000,
      interval: 500,
    })
    .toBe(points);
  expect(await states()).toEqual(Array(points).fill('completed'));
  const href = await page.getAttribute('[data-testid=study-csv]', 'href');
  const csv = await page.evaluate(async (url) => (await fetch(url as string)).text(), href);
  return csv
    .trim()
    .split('\r\n')
    .map((l) => l.split(','));
}

describe('design study sweeps from the environment', () => {
  it('sweeps the z component of an anisotropic permittivity from its own Sweep link: C = εz·ε0·A/d', async () => {
    const page = await environmentPage(stand);
    const cap = capacitorMeshFile(stand.server.dataDir, 'aniso-capacitor.json');
    await loadCapacitorTerminals(page, cap, '1');
    await page.click('[data-testid=group-materials] .section-head');
    await page.getByLabel('Anisotropic materials', { exact: true }).check();
    await page.getByRole('button', { name: '+ Add anisotropic material' }).click();
    // a new row names the first body, 0, as the engine counts them (it said "1": no such body here)
    expect(await page.getByLabel('Body (index or name)', { exact: true }).inputValue()).toBe('0');
    // each component of the vector has its own Sweep link beside it ("Sweep εr z"); the input itself is
    // labelled "εr z", which getByLabel would also find in the link's name without `exact`
    await page.getByLabel('εr z', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Sweep εr z', exact: true }).click();
    await page.waitForSelector('[data-testid=study-parameter]');
    expect(await page.textContent('[data-testid=study-parameter] strong')).toBe(
      'anisotropicMaterials[0].permittivity[2]',
    );
    await page.fill('[data-testid=study-from]', '2');
    await page.fill('[data-testid=study-to]', '6');
    await page.fill('[data-testid=study-steps]', '3');
    await page.check('[data-testid=study-output-capacitance_F]');
    await expect
      .poll(() => page.textContent('[data-testid=study-count]'), { timeout: 20_000 })
      .toMatch(/^3 points · /);
    await page.click('[data-testid=run-study]');

    const [header, ...rows] = await completedTable(page, 3);
    const col = (name: string) => (header as string[]).indexOf(name);
    expect(col('anisotropicMaterials[0].permittivity[2]')).toBe(1);
    const area = 0.005 * 0.005;
    for (const row of rows) {
      const epsZ = Number(row[col('anisotropicMaterials[0].permittivity[2]')]);
      const c = Number(row[col('capacitance_F')]);
      const closed = (epsZ * EPS0 * area) / cap.gap;
      console.log(
        `εz = ${epsZ}: C = ${c.toExponential(6)} F, εz·ε0·A/d = ${closed.toExponential(6)} F (error ${Math.abs(c / closed - 1).toExponential(2)})`,
      );
      // a uniform field between plates that cover the box's faces: exact on any mesh
      expect(Math.abs(c / closed - 1)).toBeLessThan(1e-6);
    }
    expect(rows.map((r) => Number(r[1]))).toEqual([2, 4, 6]);
    await page.context().close();
  }, 120_000);

  it('thermal transient over two heat powers: A − B animates frame by frame with its own controls', async () => {
    const page = await environmentPage(stand);
    const cap = capacitorMeshFile(stand.server.dataDir, 'heated-plate.json');
    await page.setInputFiles('[data-testid=file-input]', cap.path);
    await page.waitForSelector('[data-testid=config-form]');
    await page.click('[data-testid=physics-thermal]');
    // convection to 293.15 K on the bottom face, 1 W in the body, from 293.15 K for 10 s in steps of 1 s:
    // a linear problem, so the rise T − 293.15 K is proportional to the power at every vertex and instant
    await page.click('[data-testid=add-thermal-condition]');
    await page.fill('[data-testid=thermal-condition-0-faces]', cap.bottom.join(', '));
    await page.click('[data-testid=group-heat-sources] .section-head');
    await page.getByRole('button', { name: '+ Add heat source' }).click();
    await page.click('[data-testid=group-thermal-transient] .section-head');
    await page.getByLabel('Transient (temperature over time)', { exact: true }).check();
    await page.getByLabel('End time', { exact: true }).fill('10');
    await page.getByRole('button', { name: 'Sweep Value', exact: true }).click();
    await page.waitForSelector('[data-testid=study-parameter]');
    const path = (await page.textContent('[data-testid=study-parameter] strong')) ?? '';
    expect(path).toMatch(/^heatSources\[0\]\./);
    await page.fill('[data-testid=study-from]', '1');
    await page.fill('[data-testid=study-to]', '3');
    await page.fill('[data-testid=study-steps]', '2');
    await page.check('[data-testid=study-output-max_temperature_K]');
    await expect
      .poll(() => page.textContent('[data-testid=study-count]'), { timeout: 20_000 })
      .toMatch(/^2 points · /);
    await page.click('[data-testid=run-study]');
    const [header, ...rows] = await completedTable(page, 2);
    const col = (name: string) => (header as string[]).indexOf(name);
    const tMax = rows.map((r) => Number(r[col('max_temperature_K')]));
    console.log(`heated plate: max temperature ${tMax.map((t) => t.toFixed(4)).join(' K, ')} K at 1 W, 3 W`);
    // linear: the rise at 3 W is 3 × the rise at 1 W
    expect(Math.abs(((tMax[1] as number) - 293.15) / ((tMax[0] as number) - 293.15) - 3)).toBeLessThan(1e-6);

    // A = 3 W, B = 1 W: the difference A − B = 2 × B's rise, frame by frame
    const pointOf = (watts: number) => rows.find((r) => Number(r[1]) === watts)?.[0] as string;
    await page.check(`[data-testid=study-compare-pick][data-point="${pointOf(3)}"]`);
    await page.check(`[data-testid=study-compare-pick][data-point="${pointOf(1)}"]`);
    await page.click('[data-testid=study-compare]');
    await page.waitForSelector('[data-testid=compare-pane-a] iframe', { timeout: 60_000 });
    await page.selectOption('[data-testid=compare-field]', 'temperature');
    await page.click('[data-testid=compare-difference]');
    const pane = '[data-testid=compare-pane-difference]';
    const el = await page.waitForSelector(`${pane} iframe`, { timeout: 60_000 });
    const frameD = await el.contentFrame();
    if (!frameD) throw new Error('the difference pane has no frame');
    await frameD.waitForLoadState('load');
    const title = (await page.textContent(`${pane} figcaption`)) ?? '';
    console.log(`difference pane: "${title}"`);
    // one frame per time step, t = 1 … 10 s
    expect(title).toBe('A − B: point 1 minus point 0, frame by frame (10 frames)');
    // both have the same time frames: nothing to say about why it would not animate
    expect(await page.locator('[data-testid=compare-frames-note]').count()).toBe(0);
    const frames = Number(/\((\d+) frames\)/.exec(title)?.[1]);

    // its own controls: stepping them moves the difference pane's frame, not the environment's viewer
    const controls = `${pane} [data-testid=animation-controls]`;
    await page.waitForSelector(controls);
    type Pane = {
      fieldlineViewer: {
        shown: () => { field: string | null; legend: { max: number } | null };
        app: { layers: { surface: { current: { magnitude: Float32Array | null } | null } } };
      };
    };
    const field = () => frameD.evaluate(() => (window as unknown as Pane).fieldlineViewer.shown().field);
    // the largest A − B of the frame on screen (the legend keeps one range over all frames)
    const frameMax = () =>
      frameD.evaluate(() => {
        const values = (window as unknown as Pane).fieldlineViewer.app.layers.surface.current?.magnitude;
        return values ? Math.max(...values) : null;
      });
    await expect.poll(field, { timeout: 30_000 }).toBe('temperature');
    const counter = () => page.textContent(`${controls} .transport span`);
    expect(await counter()).toBe(`Frame 1 / ${frames}`);
    const seen: number[] = [];
    for (let k = 1; k <= frames; k++) {
      if (k > 1) {
        await page.click(`${controls} button[aria-label="Next frame"]`);
        await expect.poll(counter).toBe(`Frame ${k} / ${frames}`);
        // the pane follows: its values change from the previous frame's
        await expect.poll(frameMax).not.toBe(seen[seen.length - 1]);
      }
      seen.push((await frameMax()) as number);
    }
    console.log(`A − B largest by frame: ${seen.map((v) => v.toPrecision(5)).join(', ')} K`);
    // the plate heats: the difference grows frame by frame (a linear problem: 2 × B's rise at each instant)
    for (let k = 1; k < seen.length; k++) expect(seen[k] as number).toBeGreaterThan(seen[k - 1] as number);
    // the last frame is the end of the run: A − B peaks at 2 × B's peak rise = T_A,max − T_B,max
    const expected = (tMax[1] as number) - (tMax[0] as number);
    expect(Math.abs((seen[seen.length - 1] as number) / expected - 1)).toBeLessThan(1e-4);
    // play runs the difference through its frames
    await page.click(`${controls} button[aria-label="Play"]`);
    await expect.poll(counter, { timeout: 10_000 }).not.toBe(`Frame ${frames} / ${frames}`);
    await page.context().close();
  }, 120_000);
});
