import { writeFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { boxMesh, facesOnPlane } from '../../server/test/support/box-mesh.ts';
import { launchBrowser } from '../support/browser.ts';
import { openEnvironment, signUp } from '../support/environment-page.ts';
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

it('shots', async () => {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  page.on('console', (m) => m.type() === 'error' && console.log('console', m.text()));
  await openEnvironment(page, server.origin);
  await signUp(page);
  const mesh = boxMesh([5, 5, 1], [10, 10, 4]);
  writeFileSync('/tmp/envshots/box.json', JSON.stringify({ ...mesh, units: 'mm' }));
  await page.setInputFiles('[data-testid=file-input]', '/tmp/envshots/box.json');
  await page.waitForTimeout(1500);
  await page.screenshot({ path: '/tmp/envshots/10-mesh.png' });
  await page.click('[data-testid=add-dirichlet-group]');
  await page.click('[data-testid=add-dirichlet-group]');
  await page.fill('[data-testid=dirichlet-group-0-faces]', facesOnPlane(mesh, 2, 0).join(', '));
  await page.fill('[data-testid=dirichlet-group-1-faces]', facesOnPlane(mesh, 2, 1).join(', '));
  await page.click('[data-testid=run-analysis]');
  await page.waitForSelector('[data-testid=quantities]', { timeout: 60000 });
  await page.waitForTimeout(1500);
  await page.screenshot({ path: '/tmp/envshots/11-results.png' });
  await page.click('[data-testid=mode-section]');
  await page.waitForTimeout(800);
  await page.screenshot({ path: '/tmp/envshots/12-section.png' });
});
