import type { BrowserContext } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerApiUser } from '../support/api-user.ts';
import { serverAndBrowser } from '../support/stand.ts';

// What a page opened by its address downloads before the entry script has run: the auth check
// (<link rel=preload> in index.html) and, for the route in the hash, the page's chunks, CSS and API
// reads (the inline script of web/build/route-preload.ts, allowed by its CSP hash). Each is fetched
// once: the app's own import() and fetch() take the preloaded responses.
let signedIn: BrowserContext;
const stand = serverAndBrowser();
beforeAll(async () => {
  const [name = '', value = ''] = (await registerApiUser(stand.server.origin)).split('=');
  signedIn = await stand.browser.newContext();
  await signedIn.addCookies([{ name, value, url: stand.server.origin }]);
});

/**
 * Opens `hash` with the entry script held back until every request in `before` has been sent (10 s at
 * most): those are then proven to start without the app's code. Returns the request paths and what
 * the console said.
 */
async function open(context: BrowserContext, hash: string, ready: string, before: RegExp[] = []) {
  const page = await context.newPage();
  const sent: string[] = [];
  const console: string[] = [];
  let heldTooLong = false;
  let allSent: () => void = () => {};
  const waited = new Promise<void>((resolve) => {
    allSent = resolve;
  });
  const check = () => {
    if (before.every((re) => sent.some((path) => re.test(path)))) allSent();
  };
  page.on('request', (request) => {
    sent.push(new URL(request.url()).pathname);
    check();
  });
  check();
  await page.route(/\/assets\/main-[^/]+\.js$/, async (route) => {
    const timeout = setTimeout(() => {
      heldTooLong = true;
      allSent();
    }, 10_000);
    await waited;
    clearTimeout(timeout);
    await route.continue();
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') console.push(m.text());
  });
  page.on('pageerror', (e) => console.push(e.message));
  await page.goto(`${stand.server.origin}/${hash}`);
  await page.getByText(ready).first().waitFor();
  await page.waitForLoadState('networkidle');
  await page.close();
  return { sent, console, heldTooLong };
}

const times = (sent: string[], path: RegExp) => sent.filter((p) => path.test(p)).length;

describe('start-up preloads', () => {
  it('dashboard: the auth check, the page chunk and its CSS go out before the entry runs, each once', async () => {
    const { sent, console, heldTooLong } = await open(signedIn, '#/dashboard', 'Welcome, Test Engineer', [
      /^\/api\/auth\/check$/,
      /^\/assets\/DashboardPage-.*\.js$/,
      /^\/assets\/dashboard-.*\.css$/,
    ]);
    expect(heldTooLong).toBe(false);
    expect(console).toEqual([]); // no CSP refusal, no preload left unused
    expect(times(sent, /^\/api\/auth\/check$/)).toBe(1);
    expect(times(sent, /^\/assets\/DashboardPage-.*\.js$/)).toBe(1);
    expect(times(sent, /^\/assets\/dashboard-.*\.css$/)).toBe(1);
  });

  it('billing: /api/plans goes out before the entry runs and the page takes it', async () => {
    const { sent, console, heldTooLong } = await open(signedIn, '#/billing', 'Billing & Pricing', [
      /^\/api\/plans$/,
      /^\/assets\/BillingPage-.*\.js$/,
    ]);
    expect(heldTooLong).toBe(false);
    expect(console).toEqual([]);
    expect(times(sent, /^\/api\/plans$/)).toBe(1);
    expect(times(sent, /^\/assets\/BillingPage-.*\.js$/)).toBe(1);
    expect(times(sent, /^\/api\/auth\/check$/)).toBe(1);
  });

  it('landing: no page chunk preloaded; a guest opening the dashboard still goes to login', async () => {
    const landing = await open(signedIn, '', 'Fieldline');
    expect(landing.console).toEqual([]);
    expect(times(landing.sent, /^\/assets\/[A-Z]\w*Page-/)).toBe(0);
    expect(times(landing.sent, /^\/api\/auth\/check$/)).toBe(1);

    const guest = await stand.browser.newContext();
    const page = await guest.newPage();
    await page.goto(`${stand.server.origin}/#/dashboard`);
    await page.waitForURL(/#\/userdatabase\/Login$/);
    await guest.close();
  });
});
