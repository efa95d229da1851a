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
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  await openEnvironment(page, server.origin);
  await signUp(page);
  const mesh = boxMesh([0.005, 0.005, 0.001], [2, 2, 2]);
  writeFileSync('/tmp/envshots/surface.json', JSON.stringify({ vertices: mesh.vertices, faces: mesh.faces, units: 'mm' }));
  await page.setInputFiles('[data-testid=file-input]', '/tmp/envshots/surface.json');
  await page.waitForTimeout(300);
  await page.click('.mesh-options summary');
  await page.screenshot({ path: '/tmp/envshots/5-surface.png' });
  await page.click('[data-testid=generate-volume-mesh]');
  await page.waitForSelector('[data-testid=meshing-error]', { timeout: 60000 });
  await page.screenshot({ path: '/tmp/envshots/6-meshfail.png' });
  writeFileSync('/tmp/envshots/box.json', JSON.stringify({ ...mesh, units: 'm' }));
  await page.setInputFiles('[data-testid=file-input]', '/tmp/envshots/box.json');
  await page.click('[data-testid=add-dirichlet-group]');
  await page.click('[data-testid=add-dirichlet-group]');
  await page.fill('[data-testid=dirichlet-group-0-faces]', facesOnPlane(mesh, 2, 0).join(', '));
  await page.fill('[data-testid=dirichlet-group-1-faces]', facesOnPlane(mesh, 2, 0.001).join(', '));
  await page.click('[data-testid=run-analysis]');
  await page.waitForSelector('[data-testid=quantities]', { timeout: 60000 });
  await page.click('[data-testid=mode-section]');
  await page.screenshot({ path: '/tmp/envshots/7-results.png' });
  console.log(await page.evaluate(() => {
    const sec = document.querySelector('[data-testid=results-section]') as HTMLElement;
    const head = sec.querySelector('.section-head') as HTMLElement;
    const cs = getComputedStyle(sec); const hs = getComputedStyle(head);
    const pb = document.querySelector('.panel.right .panel-body') as HTMLElement;
    return JSON.stringify({ secPad: cs.padding, secMargin: cs.margin, secDisplay: cs.display, headPad: hs.padding, headMargin: hs.margin, headW: head.getBoundingClientRect().width, secRect: sec.getBoundingClientRect().toJSON(), headRect: head.getBoundingClientRect().toJSON(), pbScroll: pb.scrollTop, left: (document.querySelector('.panel.left .panel-body') as HTMLElement).scrollTop, secGap: cs.gap, secFlex: cs.flexDirection, outer: sec.outerHTML.slice(0, 300) });
  }));
  for (const g of ['group-materials', 'group-ports', 'group-sparams']) await page.click(`[data-testid=${g}] .section-head`);
  await page.click('[data-testid=group-ports] input[type=checkbox]');
  await page.click('[data-testid=group-ports] button.add');
  await page.click('[data-testid=group-boundaries] .section-head');
  await page.screenshot({ path: '/tmp/envshots/8-form.png' });
  await page.click('[data-testid=raw-json-button]');
  await page.waitForTimeout(300);
  await page.screenshot({ path: '/tmp/envshots/9-raw.png' });
});
