import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
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
