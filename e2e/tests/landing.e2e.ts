import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { boxMesh } from '../../server/test/support/box-mesh.ts';
import { serverAndBrowser } from '../support/stand.ts';

const stand = serverAndBrowser();

it('serves the landing page with the product name and Open Beta', async () => {
  const page = await stand.browser.newPage();
  await page.goto(`${stand.server.origin}/#/`);
  await expect.poll(() => page.locator('h1').textContent()).toContain('Fieldline');
  expect(await page.locator('h1').textContent()).toContain('Open Beta');
  await page.close();
});

it('opens the simulator from an Example App card with that physics chosen', async () => {
  const page = await stand.browser.newPage();
  const meshFile = join(stand.server.dataDir, 'tiny-volume.json');
  writeFileSync(meshFile, JSON.stringify({ ...boxMesh([0.01, 0.01, 0.01], [1, 1, 1]), units: 'm' }));
  for (const physics of ['thermal', 'vibration', 'structural', 'em']) {
    await page.goto(`${stand.server.origin}/#/`);
    await page.click(`[data-testid=example-${physics}]`);
    await expect.poll(() => page.url()).toContain(`#/environment?physics=${physics}`);
    // With a volume mesh the form shows, its physics chooser on the example's family.
    await page.setInputFiles('[data-testid=file-input]', meshFile);
    await page.waitForSelector('[data-testid=physics-chooser]');
    expect(await page.getAttribute(`[data-testid=physics-${physics}]`, 'aria-pressed')).toBe('true');
  }
  await page.close();
});

it('opens the validation report from the landing page and finds the WR-90 row with its error', async () => {
  const page = await stand.browser.newPage();
  await page.goto(`${stand.server.origin}/#/`);
  await page.click('[data-testid=validation-link]');
  await expect.poll(() => page.url()).toContain('#/docs/validation');
  await expect.poll(() => page.locator('h1').textContent()).toBe('Validation report');
  const row = page.locator('[data-testid="validation-WR-90 ∠S21 at 10 GHz"]');
  await row.waitFor();
  const error = await row.locator('[data-testid=validation-error]').textContent();
  // The phase error in degrees, under the 0.5° tolerance the test enforces.
  const degrees = Number(error?.replace('°', '').trim());
  expect(degrees).toBeGreaterThanOrEqual(0);
  expect(degrees).toBeLessThan(0.5);
  await row.getByRole('button').click();
  await page.getByText(/Reference: closed form ∠S21/).waitFor();
  // Every family has its table, and the benches are there with their peers.
  for (const family of ['Electromagnetics', 'Structural', 'Thermal', 'Vibration']) {
    await page.getByRole('heading', { name: new RegExp(`^${family}`) }).waitFor();
  }
  await page.getByRole('heading', { name: /CalculiX|NAFEMS LE1/ }).waitFor();
  const shots = process.env.E2E_SCREENSHOTS;
  if (shots) await page.screenshot({ path: join(shots, 'validation-page.png'), fullPage: true });
  await page.close();
});

it('lines the validation tables up: every cell of a row on one divider, no value wrapping its unit', async () => {
  // issue 36: the case column's row dividers sat apart from the other columns', and at this width values
  // wrapped their unit onto a second line ("0.00320624 / m").
  const page = await stand.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(`${stand.server.origin}/#/docs/validation`);
  await page.locator('.validation-table tbody tr').first().waitFor();
  const layout = await page.evaluate(() => {
    const rows = Array.from(
      document.querySelectorAll<HTMLTableRowElement>('.validation-table tbody tr[data-testid]'),
    );
    const lines = (el: Element) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size;
    };
    return rows.map((row) => {
      const cells = Array.from(row.cells, (c: HTMLTableCellElement) => c.getBoundingClientRect());
      const bottoms = cells.map((c) => c.bottom);
      const tops = cells.map((c) => c.top);
      return {
        name: row.dataset.testid ?? '',
        cells: row.cells.length,
        bottomSpread: Math.max(...bottoms) - Math.min(...bottoms),
        topSpread: Math.max(...tops) - Math.min(...tops),
        // Reference, Fieldline, Error, Tolerance: one line each
        valueLines: [2, 3, 4, 5].map((i) => (row.cells[i] ? lines(row.cells[i]) : 0)),
      };
    });
  });
  const worst = (k: 'bottomSpread' | 'topSpread') => Math.max(...layout.map((r) => r[k]));
  const wrapped = layout.filter((r) => r.valueLines.some((n) => n > 1)).map((r) => r.name);
  console.log(
    `validation page at 1100 px: ${layout.length} case rows; cell bottoms apart by ≤ ${worst('bottomSpread').toFixed(2)} px, tops by ≤ ${worst('topSpread').toFixed(2)} px; ${wrapped.length} rows with a wrapped value`,
  );
  expect(layout.length).toBeGreaterThan(20);
  for (const row of layout) {
    expect(row.cells, row.name).toBe(9);
    expect(row.bottomSpread, `${row.name}: cell bottoms`).toBeLessThan(0.5);
    expect(row.topSpread, `${row.name}: cell tops`).toBeLessThan(0.5);
    expect(row.valueLines, `${row.name}: lines per value`).toEqual([1, 1, 1, 1]);
  }
  const shots = process.env.E2E_SCREENSHOTS;
  if (shots)
    await page
      .locator('.validation-table')
      .first()
      .screenshot({ path: join(shots, 'validation-table.png') });
  await page.close();
});
