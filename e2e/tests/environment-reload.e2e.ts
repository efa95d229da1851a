import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { capacitorMeshFile, loadCapacitorTerminals } from '../support/capacitor-model.ts';
import { environmentPage } from '../support/environment-page.ts';
import { serverAndBrowser } from '../support/stand.ts';

/**
 * The job on screen lives in the address (`?job=…`): F5 after a run brings it back under its file name,
 * back/forward between two runs switch between their results, and F5 after Cancel says plainly that the
 * cancelled job has nothing to show (qa29/qa30: an empty page, "job 1a2b3c4d", a model-less cancel).
 */

const OUT = resolve(import.meta.dirname, '..', 'out');

const stand = serverAndBrowser({ env: { ENGINE_TEST_HOOKS: '1' } });

/** Loads a parallel-plate capacitor and starts a 1 V electrostatic run; returns the job id in the address. */
async function runCapacitor(page: Page, name: string, gap: number): Promise<string> {
  await loadCapacitorTerminals(page, capacitorMeshFile(stand.server.dataDir, name, gap), '1');
  await page.click('[data-testid=run-analysis]');
  await expect
    .poll(() => new URL(page.url().replace('#/', '')).searchParams.get('job'), { timeout: 30_000 })
    .toMatch(/^[0-9a-f-]{8,}$/);
  return new URL(page.url().replace('#/', '')).searchParams.get('job') as string;
}

const fileShown = (page: Page) => page.textContent('[data-testid=left-panel] .file-name');
const chip = (page: Page) => page.textContent('[data-testid=status-chip]');

describe('the job on screen across reloads and history', () => {
  it('F5 keeps the file name, back/forward switch jobs, F5 after Cancel says there are no results', async () => {
    const page = await environmentPage(stand);

    const first = await runCapacitor(page, 'plates-1mm.json', 0.001);
    await expect.poll(() => chip(page), { timeout: 120_000 }).toBe('FEA: completed');
    await page.reload();
    await expect.poll(() => chip(page), { timeout: 60_000 }).toBe('FEA: completed');
    expect(await fileShown(page)).toBe('plates-1mm.json');
    expect(page.url()).toContain(`job=${first}`);

    // a second run replaces the first in the address (a run does not add history); opening the first
    // again by its address does, so back and forward then move between the two jobs
    const second = await runCapacitor(page, 'plates-2mm.json', 0.002);
    await expect.poll(() => chip(page), { timeout: 120_000 }).toBe('FEA: completed');
    expect(second).not.toBe(first);
    await page.goto(`${stand.server.origin}/#/environment?job=${first}`);
    await expect.poll(() => fileShown(page), { timeout: 60_000 }).toBe('plates-1mm.json');
    await page.goBack();
    await expect.poll(() => fileShown(page), { timeout: 60_000 }).toBe('plates-2mm.json');
    expect(page.url()).toContain(`job=${second}`);
    await page.goForward();
    await expect.poll(() => fileShown(page), { timeout: 60_000 }).toBe('plates-1mm.json');
    expect(page.url()).toContain(`job=${first}`);

    // Cancel a run (the engine is held 60 s by the test hook), then F5
    await page.route('**/api/fea/submit', (route) =>
      route.continue({ headers: { ...route.request().headers(), 'x-test-sleep-seconds': '60' } }),
    );
    const cancelled = await runCapacitor(page, 'plates-3mm.json', 0.003);
    await page.click('[data-testid=cancel-analysis]');
    await expect.poll(() => page.textContent('[data-testid=analysis-notice]')).toBe('Analysis cancelled.');
    await page.reload();
    await expect
      .poll(() => page.textContent('[data-testid=analysis-notice]'), { timeout: 60_000 })
      .toBe('Analysis cancelled. plates-3mm.json has no results to show; load the model again to run it.');
    expect(page.url()).toContain(`job=${cancelled}`);
    mkdirSync(OUT, { recursive: true });
    await page.screenshot({ path: join(OUT, 'reload-after-cancel.png') });
    await page.context().close();
  });
});
