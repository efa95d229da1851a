import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { capacitorMeshFile } from '../support/capacitor-model.ts';
import { openEnvironment } from '../support/environment-page.ts';
import { serverAndBrowser } from '../support/stand.ts';

/**
 * Probe points in the configuration form (qa32): their x, y, z inputs were 47 px wide beside the probe's
 * name, so "0.001875" showed as "0.001" and a typo could not be seen.
 */

const stand = serverAndBrowser();

/** The capacitor (5 × 5 × 1 mm, in metres) with the thermal transient's probes open. */
async function thermalProbes(width: number): Promise<Page> {
  const page = await (await stand.browser.newContext({ viewport: { width, height: 900 } })).newPage();
  await openEnvironment(page, stand.server.origin);
  await page.setInputFiles('[data-testid=file-input]', capacitorMeshFile(stand.server.dataDir).path);
  await page.waitForSelector('[data-testid=config-form]');
  await page.click('[data-testid=physics-thermal]');
  await page.click('[data-testid=group-thermal-transient] .section-head');
  await page.getByLabel('Transient (temperature over time)').check();
  await page.getByRole('button', { name: '+ Add probe' }).click();
  return page;
}

describe('probe points in the form', () => {
  for (const width of [700, 1400]) {
    it(`at ${width} px a probe's coordinates show all their digits, inside the panel`, async () => {
      const page = await thermalProbes(width);
      const values = ['-0.001875', '0.0125', '-0.00025'];
      for (const [i, axis] of (['x', 'y', 'z'] as const).entries())
        await page.getByLabel(`at ${axis}`, { exact: true }).fill(values[i]!);
      const inputs = await page.$$eval('input[aria-label^="at "]', (els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return {
            value: (e as HTMLInputElement).value,
            client: e.clientWidth,
            scroll: e.scrollWidth,
            right: r.right,
          };
        }),
      );
      const panel = await page.locator('[data-testid=left-panel]').boundingBox();
      console.log(
        `${width} px: probe inputs ${inputs.map((i) => `${i.value} ${i.scroll}/${i.client} px`).join(', ')}`,
      );
      expect(inputs.map((i) => i.value)).toEqual(values);
      for (const input of inputs) {
        // the text fits the box: nothing scrolled out of sight
        expect(input.scroll).toBeLessThanOrEqual(input.client);
        expect(input.right).toBeLessThanOrEqual((panel?.x ?? 0) + (panel?.width ?? 0));
      }
      await page.context().close();
    });
  }
});
