import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { boxMesh } from '../../server/test/support/box-mesh.ts';
import { launchBrowser } from '../support/browser.ts';
import { type RunningServer, startServer } from '../support/server.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('serves the landing page with the product name and Open Beta', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.origin}/#/`);
  await expect.poll(() => page.locator('h1').textContent()).toContain('Fieldline');
  expect(await page.locator('h1').textContent()).toContain('Open Beta');
  await page.close();
});

it('opens the simulator from an Example App card with that physics chosen', async () => {
  const page = await browser.newPage();
  const meshFile = join(server.dataDir, 'tiny-volume.json');
  writeFileSync(meshFile, JSON.stringify({ ...boxMesh([0.01, 0.01, 0.01], [1, 1, 1]), units: 'm' }));
  for (const physics of ['thermal', 'vibration', 'structural', 'em']) {
    await page.goto(`${server.origin}/#/`);
    await page.click(`[data-testid=example-${physics}]`);
    await expect.poll(() => page.url()).toContain(`#/environment?physics=${physics}`);
    // With a volume mesh the form shows, its physics chooser on the example's family.
    await page.setInputFiles('[data-testid=file-input]', meshFile);
    await page.waitForSelector('[data-testid=physics-chooser]');
    expect(await page.getAttribute(`[data-testid=physics-${physics}]`, 'aria-pressed')).toBe('true');
  }
  await page.close();
});
