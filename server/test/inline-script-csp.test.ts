import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '../src/http/inline-scripts.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

// The built index.html carries one inline script (web/build/route-preload.ts); the policy allows
// exactly it, by hash. e2e/tests/delivery.e2e.ts checks that Chromium runs it under the real policy.
const preload = '(function(){var f={"/dashboard":["/assets/DashboardPage-x.js"]};})();';
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const scriptSrcOf = (csp: unknown) =>
  String(csp)
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('script-src '));

describe('inlineScriptHashes', () => {
  it('hashes the text of inline scripts only, in page order', () => {
    const html = `<head><script>${preload}</script><script type="module" crossorigin src="/assets/main.js"></script>
      <script type="module">import "/a.js";</script></head>`;
    expect(inlineScriptHashes(html)).toEqual([sha256(preload), sha256('import "/a.js";')]);
    expect(inlineScriptHashes('<head><script src="/x.js"></script></head>')).toEqual([]);
  });
});

describe('Content-Security-Policy with the built page', () => {
  const dist = mkdtempSync(join(tmpdir(), 'fieldline-dist-csp-'));
  let t: TestApp;
  beforeAll(async () => {
    writeFileSync(
      join(dist, 'index.html'),
      `<!doctype html><html lang="en"><head><script>${preload}</script><script type="module" src="/assets/main.js"></script><title>t</title></head><body></body></html>`,
    );
    t = await createTestApp({ WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it("allows that page's inline script by its hash, on pages and API replies alike", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(scriptSrcOf(page.headers['content-security-policy'])).toBe(`script-src 'self' ${sha256(preload)}`);
    const api = await t.app.inject({ method: 'GET', url: '/api/auth/check' });
    expect(api.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
  });

  it('follows a rebuilt index.html without a restart (qa29: its new preload script was blocked, a blank page)', async () => {
    const rebuilt = '(function(){var f={"/dashboard":["/assets/DashboardPage-y2.js"]};})();';
    writeFileSync(
      join(dist, 'index.html'),
      `<!doctype html><html lang="en"><head><script>${rebuilt}</script><script type="module" src="/assets/main-2.js"></script><title>t</title></head><body></body></html>`,
    );
    utimesSync(join(dist, 'index.html'), new Date(), new Date(Date.now() + 5000));
    const head = await t.app.inject({ method: 'HEAD', url: '/' });
    expect(scriptSrcOf(head.headers['content-security-policy'])).toBe(`script-src 'self' ${sha256(rebuilt)}`);
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.body).toContain(rebuilt);
    expect(scriptSrcOf(page.headers['content-security-policy'])).toBe(`script-src 'self' ${sha256(rebuilt)}`);
    const api = await t.app.inject({ method: 'GET', url: '/api/auth/check' });
    expect(api.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
  });
});

describe('Content-Security-Policy without a built page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WEB_DIST_DIR: join(tmpdir(), 'fieldline-no-such-dist') });
  });
  afterAll(async () => {
    await t.close();
  });

  it("allows no inline script: script-src is 'self' only", async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/auth/check' });
    expect(scriptSrcOf(api.headers['content-security-policy'])).toBe("script-src 'self'");
  });
});
