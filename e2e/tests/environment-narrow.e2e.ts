import { describe, expect, it } from 'vitest';
import { environmentPage } from '../support/environment-page.ts';
import { writeBusBarStep } from '../support/geometry-files.ts';
import { uploadModel } from '../support/meshed-model.ts';
import { serverAndBrowser } from '../support/stand.ts';

/**
 * An 800 px window (qa31): the configuration panel sat over the left of the viewer, so the model and
 * "Zoom to fit" were half under it. It now sits beside the viewer; the visualization panel still floats.
 */

const stand = serverAndBrowser();

describe('the environment in a narrow window', () => {
  it('at 800 px the viewer is beside the configuration, not under it', async () => {
    const page = await environmentPage(stand, { viewport: { width: 800, height: 900 } });
    await uploadModel(page, writeBusBarStep(stand.server.dataDir));
    const box = async (selector: string) => {
      const b = await page.locator(selector).boundingBox();
      if (!b) throw new Error(`${selector} is not shown`);
      return b;
    };
    const panel = await box('[data-testid=left-panel]');
    const viewer = await box('[data-testid=viewer-frame]');
    console.log(
      `800 px: configuration 0–${panel.x + panel.width} px, viewer ${viewer.x}–${viewer.x + viewer.width} px`,
    );
    expect(viewer.x).toBeGreaterThanOrEqual(panel.x + panel.width - 1);
    expect(viewer.width).toBeGreaterThan(400);
    // the visualization panel opens over the viewer's right side (there is no room beside it)
    expect(await page.locator('[data-testid=right-panel]').count()).toBe(0);
    await page.click('button:has-text("Visualization")');
    const right = await box('[data-testid=right-panel]');
    expect(right.x + right.width).toBeCloseTo(800, -1);
    expect((await box('[data-testid=viewer-frame]')).width).toBe(viewer.width);
    await page.context().close();
  });
});
