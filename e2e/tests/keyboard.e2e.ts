import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from '../../server/test/support/box-mesh.ts';
import { openEnvironment, signUp, viewerFrame } from '../support/environment-page.ts';
import { serverAndBrowser } from '../support/stand.ts';

/**
 * The environment with the keyboard only (Tab, Shift+Tab, Enter, Space, typing), in Chromium against the
 * real server and engine: upload a model, fill the boundary groups, run an electrostatic analysis, open a
 * result panel and use the viewer toolbar. Every focus stop on the way must show where the focus is.
 */
const EPS0 = 8.854187817e-12;

const stand = serverAndBrowser({ webgl: true });

interface Stop {
  name: string;
  testId: string | null;
  visible: boolean;
}

/**
 * What has the focus and whether it is visible: an outline or a ring on the element, or, for a
 * transparent input drawn by its label (the file input of the drop zone), on that label.
 */
async function focused(page: Page): Promise<Stop | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body || el.tagName === 'IFRAME') return null;
    const ringOf = (e: Element) => {
      const style = getComputedStyle(e);
      const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
      const rect = e.getBoundingClientRect();
      return (outline || style.boxShadow !== 'none') && rect.width > 2 && rect.height > 2;
    };
    // A transparent element's own ring is not seen (the drop zone's file input): then its label's counts.
    const label = el.closest('label');
    const seeThrough = Number.parseFloat(getComputedStyle(el).opacity) === 0;
    const visible = seeThrough ? label !== null && ringOf(label) : ringOf(el);
    const text = (el.getAttribute('aria-label') ?? el.getAttribute('title') ?? el.textContent ?? '').trim();
    return {
      name: `${el.tagName.toLowerCase()} "${text.slice(0, 30)}"`,
      testId: el.getAttribute('data-testid'),
      visible,
    };
  });
}

/** Presses Tab until `wanted` has the focus; every stop passed must show its focus. */
async function tabTo(page: Page, wanted: (stop: Stop) => boolean, what: string, stops: Stop[]) {
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press('Tab');
    const stop = await focused(page);
    if (!stop) continue;
    stops.push(stop);
    if (wanted(stop)) return;
  }
  throw new Error(`Tab never reached ${what}`);
}
const byTestId = (id: string) => (s: Stop) => s.testId === id;
const byName = (name: string) => (s: Stop) => s.name === name;

describe('the environment with the keyboard only', () => {
  it('uploads a model, fills the form groups, runs, opens a result panel and uses the viewer toolbar', async () => {
    const context = await stand.browser.newContext({ viewport: { width: 1366, height: 800 } });
    const page = await context.newPage();
    await openEnvironment(page, stand.server.origin);
    await signUp(page);
    await viewerFrame(page);
    const gap = 0.001;
    const mesh = boxMesh([0.005, 0.005, gap], [2, 2, 2]);
    const file = join(stand.server.dataDir, 'keyboard-capacitor.json');
    writeFileSync(file, JSON.stringify({ ...mesh, units: 'm' }));
    const stops: Stop[] = [];

    // Upload: Tab to the drop zone's file input and open the file chooser with Space.
    await page.locator('body').focus();
    await tabTo(page, byTestId('file-input'), 'the file input', stops);
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Space');
    await (await chooser).setFiles(file);
    await page.waitForSelector('[data-testid=config-form]');

    // The form groups: two Dirichlet groups, their faces and a voltage typed in.
    await tabTo(page, byTestId('add-dirichlet-group'), 'Add Dirichlet group', stops);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=dirichlet-group-1]');
    // Adding rows leaves the focus on the button: back (Shift+Tab) to the first row's faces, then on.
    const fill = async (testId: string, text: string) => {
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(text);
      expect(await page.inputValue(`[data-testid=${testId}]`)).toBe(text);
    };
    await shiftTabTo(page, 'dirichlet-group-0-faces', stops);
    await fill('dirichlet-group-0-faces', facesOnPlane(mesh, 2, 0).join(', '));
    await tabTo(page, byTestId('dirichlet-group-1-voltage'), 'the second group voltage', stops);
    await fill('dirichlet-group-1-voltage', '3');
    await tabTo(page, byTestId('dirichlet-group-1-faces'), 'the second group faces', stops);
    await fill('dirichlet-group-1-faces', facesOnPlane(mesh, 2, gap).join(', '));

    // Run, by Enter on the Run button.
    await tabTo(page, byTestId('run-analysis'), 'Run', stops);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=quantity-capacitance_F]', { timeout: 180_000 });
    const shown = (await page.textContent('[data-testid=quantity-capacitance_F] td')) ?? '';
    const expected = (EPS0 * 0.005 * 0.005) / gap;
    const [, value] = /([\d.]+) fF/.exec(shown) ?? [];
    const error = Math.abs(Number(value) * 1e-15 - expected) / expected;
    console.log(
      `keyboard run: C shown ${shown}, closed form ${(expected * 1e15).toFixed(2)} fF, error ${(error * 100).toFixed(3)} %`,
    );
    expect(error).toBeLessThan(0.005);

    // A result panel: Tab to the closed "Model info" group of the results and open it with Enter.
    await tabTo(page, byName('button "▸Model info"'), 'the Model info group', stops);
    await page.keyboard.press('Enter');
    expect(
      await page.getAttribute(
        '.panel.right .env-section:has-text("Model info") .section-head',
        'aria-expanded',
      ),
    ).toBe('true');

    // The viewer toolbar: Section mode with Space, then Zoom to fit.
    await tabTo(page, byTestId('mode-section'), 'the Section button', stops);
    await page.keyboard.press('Space');
    await page.waitForSelector('[data-testid=section-tools]');
    await tabTo(page, byTestId('slice-lock'), 'Lock slice', stops);
    await page.keyboard.press('Enter');
    expect(await page.getAttribute('[data-testid=slice-lock]', 'aria-pressed')).toBe('true');

    const invisible = stops.filter((s) => !s.visible).map((s) => s.name);
    console.log(`keyboard run: ${stops.length} focus stops, ${invisible.length} without a visible focus`);
    expect(invisible, 'focus not visible on').toEqual([]);
    await context.close();
  });
});

/** Presses Shift+Tab until the field `testId` has the focus; every stop passed must show its focus. */
async function shiftTabTo(page: Page, testId: string, stops: Stop[]) {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Shift+Tab');
    const stop = await focused(page);
    if (!stop) continue;
    stops.push(stop);
    if (stop.testId === testId) return;
  }
  throw new Error(`Shift+Tab never reached ${testId}`);
}
