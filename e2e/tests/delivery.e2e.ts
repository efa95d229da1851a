import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST } from '../support/bundle.ts';
import { serverAndBrowser } from '../support/stand.ts';

// The built app (web/dist) served by the real server, as a browser gets it.
const stand = serverAndBrowser();

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${stand.server.origin}${path}`, { headers, redirect: 'manual' });

const entryScript = () => {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const src = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
  if (!src) throw new Error('no entry script in web/dist/index.html');
  return src;
};

describe('delivery', () => {
  it('sends the entry script brotli- or gzip-compressed, immutable, with Vary', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
    ]) {
      const res = await get(entryScript(), { 'accept-encoding': accept as string });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('content-type')).toMatch(/javascript/);
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await res.text()).length).toBeGreaterThan(1000); // fetch decodes it
    }
  });

  it('revalidates index.html and viewer.html', async () => {
    for (const path of ['/', '/index.html', '/viewer.html']) {
      const res = await get(path, { 'accept-encoding': 'br' });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(res.headers.get('content-type'), path).toMatch(/text\/html/);
    }
  });

  it('has a favicon, a touch icon and a meta description', async () => {
    for (const [path, type] of [
      ['/favicon.ico', /icon/],
      ['/favicon.svg', /svg/],
      ['/apple-touch-icon.png', /png/],
    ]) {
      const res = await get(path as string);
      expect(res.status, path as string).toBe(200);
      expect(res.headers.get('content-type'), path as string).toMatch(type as RegExp);
    }
    const html = await (await get('/')).text();
    expect(html).toMatch(/<meta\s+name="description"\s+content="[^"]{50,}"/);
  });

  it('redirects a typed page path to its hash route', async () => {
    for (const [from, to] of [
      ['/dashboard', '/#/dashboard'],
      ['/billing', '/#/billing'],
      ['/environment?physics=thermal', '/#/environment?physics=thermal'],
      ['/userdatabase/Login', '/#/userdatabase/Login'],
    ]) {
      const res = await get(from as string);
      expect(res.status, from).toBe(302);
      expect(res.headers.get('location'), from).toBe(to);
    }
    const page = await stand.browser.newPage();
    await page.goto(`${stand.server.origin}/userdatabase/Login`);
    await expect.poll(() => page.url()).toBe(`${stand.server.origin}/#/userdatabase/Login`);
    await page.waitForSelector('#login-email');
    await page.close();
  });

  it('answers an unknown page with an HTML 404 linking home, and the API with JSON', async () => {
    const res = await get('/no/such/page', { accept: 'text/html' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const page = await stand.browser.newPage();
    await page.goto(`${stand.server.origin}/no/such/page`);
    expect(await page.locator('h1').textContent()).toBe('Page not found');
    await page.click('a.home');
    await expect.poll(() => page.locator('h1').textContent()).toContain('Fieldline');
    await page.close();

    const api = await get('/api/no-such-call', { accept: 'text/html' });
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: 'not_found' });
  });

  it('loads the landing page with ≤ 150 kB of compressed JavaScript and no simulator or viewer', async () => {
    const page = await stand.browser.newPage();
    const scripts: { url: string; bytes: number }[] = [];
    page.on('requestfinished', async (request) => {
      if (request.resourceType() !== 'script') return;
      const sizes = await request.sizes();
      scripts.push({ url: request.url(), bytes: sizes.responseBodySize });
    });
    await page.goto(`${stand.server.origin}/`, { waitUntil: 'networkidle' });
    await expect.poll(() => page.locator('h1').textContent()).toContain('Fieldline');
    const total = scripts.reduce((s, r) => s + r.bytes, 0);
    console.log(`landing JS transferred: ${(total / 1000).toFixed(1)} kB in ${scripts.length} files`);
    expect(total).toBeGreaterThan(10_000);
    expect(total).toBeLessThanOrEqual(150_000);
    expect(scripts.filter((s) => /EnvironmentPage|viewer/.test(s.url))).toEqual([]);
    await page.close();
  });
});
