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
