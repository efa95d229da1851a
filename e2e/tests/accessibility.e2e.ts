import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { boxMesh } from '../../server/test/support/box-mesh.ts';
import { registerApiUser } from '../support/api-user.ts';
import { axeViolations, formatViolations } from '../support/axe.ts';
import { openEnvironment, viewerFrame } from '../support/environment-page.ts';
import { serverAndBrowser } from '../support/stand.ts';

/**
 * axe-core (WCAG 2.0/2.1 A and AA, best practices) on every page of the app in Chromium against the
 * real server: 0 violations, the failing rules and elements printed when not.
 */
let guest: BrowserContext;
let user: BrowserContext;

const stand = serverAndBrowser({ webgl: true });
beforeAll(async () => {
  guest = await stand.browser.newContext({ viewport: { width: 1280, height: 900 } });
  user = await stand.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const cookie = await registerApiUser(stand.server.origin);
  const [name, value] = cookie.split('=') as [string, string];
  await user.addCookies([{ name, value, url: stand.server.origin }]);
});

const url = (hashPath: string) => `${stand.server.origin}/#${hashPath}`;

async function expectNoViolations(page: Page, where: string) {
  const violations = await axeViolations(page);
  const report = formatViolations(where, violations);
  console.log(report);
  expect(
    violations.map((v) => v.id),
    report,
  ).toEqual([]);
  expect(await page.locator('h1').count(), `${where}: one h1`).toBe(1);
}

/**
 * Tabs through the page: every control reached shows where the focus is (an outline or a ring),
 * and none is skipped into the void (focus stays on a visible element).
 */
async function expectVisibleFocus(page: Page, where: string, presses: number) {
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  const invisible: string[] = [];
  let reached = 0;
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press('Tab');
    const seen = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      if (el.tagName === 'IFRAME') return { name: 'iframe', visible: true };
      const style = getComputedStyle(el);
      const ring = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
      const shadow = style.boxShadow !== 'none';
      const rect = el.getBoundingClientRect();
      const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}"`;
      return { name, visible: (ring || shadow) && rect.width > 0 && rect.height > 0 };
    });
    if (!seen) continue;
    reached++;
    if (!seen.visible) invisible.push(seen.name);
  }
  console.log(`${where}: ${reached} focus stops, ${invisible.length} without a visible focus`);
  expect(reached).toBeGreaterThan(3);
  expect(invisible, `${where}: focus not visible on`).toEqual([]);
}

/** Opens a page and waits until it has drawn its h1 (lazy chunks and the auth check done). */
async function open(context: BrowserContext, hashPath: string, ready = 'h1'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url(hashPath));
  await page.waitForSelector(ready);
  await page.waitForLoadState('networkidle');
  return page;
}

const PAGES: [name: string, who: 'guest' | 'user', hashPath: string, ready?: string][] = [
  ['landing', 'guest', '/'],
  ['landing (signed in)', 'user', '/'],
  ['login', 'guest', '/userdatabase/Login', '#login-email'],
  ['register', 'guest', '/userdatabase/Register'],
  ['forgot password', 'guest', '/userdatabase/ForgotPassword'],
  ['dashboard', 'user', '/dashboard', '[data-testid=usage-percent]'],
  ['billing', 'user', '/billing'],
  ['manage billing (test mode)', 'user', '/billing/manage'],
  ['docs', 'guest', '/docs'],
  ['validation report', 'guest', '/docs/validation'],
  ['blog', 'guest', '/blog'],
  ['support', 'guest', '/support'],
  ['privacy policy', 'guest', '/privacy-policy'],
  ['terms of service', 'guest', '/terms-of-service'],
  ['not found (in the app)', 'guest', '/no-such-page'],
];

describe('axe: 0 violations', () => {
  for (const [name, who, hashPath, ready] of PAGES) {
    it(name, async () => {
      const page = await open(who === 'guest' ? guest : user, hashPath, ready);
      await expectNoViolations(page, name);
      if (name === 'landing' || name === 'login') await expectVisibleFocus(page, name, 12);
      await page.close();
    });
  }

  it('billing (Buy Tokens tab) and checkout (test mode)', async () => {
    const page = await open(user, '/billing');
    await page.getByRole('tab', { name: 'Buy Tokens' }).click();
    await page.getByRole('button', { name: 'Purchase Tokens' }).waitFor();
    await expectNoViolations(page, 'billing (Buy Tokens tab)');
    await page.getByRole('button', { name: 'Purchase Tokens' }).click();
    await expect.poll(() => new URL(page.url()).hash).toMatch(/^#\/checkout\/chk_/);
    await page.getByText('TEST MODE').waitFor();
    await expectNoViolations(page, 'checkout');
    await page.close();
  });

  it('the HTML 404 page of the server', async () => {
    const page = await guest.newPage();
    await page.goto(`${stand.server.origin}/no/such/page`);
    await expectNoViolations(page, 'server 404');
    await page.close();
  });

  it('environment: empty, with a mesh loaded, with results shown', async () => {
    const page = await user.newPage();
    await openEnvironment(page, stand.server.origin);
    await viewerFrame(page);
    await page.waitForLoadState('networkidle');
    await expectNoViolations(page, 'environment (empty)');

    const meshFile = join(stand.server.dataDir, 'a11y-volume.json');
    writeFileSync(meshFile, JSON.stringify({ ...boxMesh([0.01, 0.01, 0.01], [1, 1, 1]), units: 'm' }));
    await page.setInputFiles('[data-testid=file-input]', meshFile);
    await page.waitForSelector('[data-testid=physics-chooser]');
    await expectNoViolations(page, 'environment (mesh loaded)');
    await expectVisibleFocus(page, 'environment (mesh loaded)', 40);

    const mesh = boxMesh([0.1, 0.02, 0.02], [3, 1, 1]);
    const results = {
      solver_info: { elements: mesh.tetrahedra.length, matrix_size: 0, non_zeros: 0, analysis: 'synthetic' },
      vertices: mesh.vertices,
      faces: mesh.faces,
      tetrahedra: mesh.tetrahedra,
      fields: {
        temperature: {
          label: 'Temperature',
          unit: 'K',
          kind: 'scalar',
          location: 'vertex',
          complex: false,
          data: mesh.vertices.map(([x]) => 300 + 1000 * (x ?? 0)),
        },
      },
      quantities: {},
      // A chart (from the lazily loaded charts chunk) is on the page when axe runs.
      thermal_history: {
        times: [0, 1, 2, 3],
        probes: [{ name: 'tip', temperature: [300, 310, 318, 323] }],
      },
      // The S-parameter table scrolls sideways in the narrow panel: a region a keyboard can reach (qa29).
      s_parameters: {
        frequencies: [8.2e9, 10.3e9, 12.4e9],
        S11: { real: [0.001, 0.002, 0.001], imag: [0, 0, 0] },
        S21: { real: [-0.84, -0.53, 0.71], imag: [-0.54, 0.85, 0.7] },
        S12: { real: [-0.84, -0.53, 0.71], imag: [-0.54, 0.85, 0.7] },
        S22: { real: [0.001, 0.002, 0.001], imag: [0, 0, 0] },
      },
    };
    const resultsFile = join(stand.server.dataDir, 'a11y-results.json');
    writeFileSync(resultsFile, JSON.stringify(results));
    await page.setInputFiles('[data-testid=file-input]', resultsFile);
    await expect.poll(() => page.textContent('[data-testid=status-chip]')).toBe('FEA: completed');
    await page.waitForSelector('[data-testid=field-mode]');
    await page.waitForSelector('[data-testid=thermal-history] svg');
    await page.waitForSelector('[data-testid=sparam-table]');
    // the viewer message log in the Debug group scrolls too
    await page.getByRole('button', { name: 'Debug' }).click();
    await page.waitForSelector('.bridge-log');
    await expectNoViolations(page, 'environment (results shown)');
    await expectVisibleFocus(page, 'environment (results shown)', 60);
    await page.close();
  });
});
