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
    // the capacitor's one body is body 0 (the engine numbers bodies from 0)
    await page.getByLabel('Material id', { exact: true }).fill('0');
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
});
