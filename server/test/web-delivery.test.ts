import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../web/build/precompress.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

// A stand-in for web/dist, precompressed by the build's own step; e2e/tests/delivery.e2e.ts checks
// the real build over HTTP.
const dist = mkdtempSync(join(tmpdir(), 'fieldline-dist-'));
const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const html = `<!doctype html><html lang="en"><head><title>t</title></head><body>${'<p>hello</p>'.repeat(200)}</body></html>`;

let t: TestApp;
beforeAll(async () => {
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), html);
  writeFileSync(join(dist, 'viewer.html'), html);
  writeFileSync(join(dist, 'assets', 'main-AbCd1234.js'), script);
  writeFileSync(join(dist, 'favicon.ico'), Buffer.alloc(100, 1));
  precompressDir(dist);
  t = await createTestApp({ WEB_DIST_DIR: dist });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('web app delivery', () => {
  it('sends the brotli twin, else gzip, else the file, with Vary', async () => {
    const br = await get('/assets/main-AbCd1234.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await get('/assets/main-AbCd1234.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/main-AbCd1234.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);

    const page = await get('/', { 'accept-encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(html);
  });

  it('caches hashed assets for a year and revalidates the pages', async () => {
    expect((await get('/assets/main-AbCd1234.js')).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await get('/')).headers['cache-control']).toBe('no-cache');
    expect((await get('/index.html')).headers['cache-control']).toBe('no-cache');
    expect((await get('/viewer.html', { 'accept-encoding': 'gzip' })).headers['cache-control']).toBe(
      'no-cache',
    );
    const icon = await get('/favicon.ico');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=86400');
  });

  it('does not serve the twins by their own names', async () => {
    expect((await get('/assets/main-AbCd1234.js.br')).statusCode).toBe(404);
  });

  it('serves the assets of a web build made after start-up (qa29: its main chunk was a 404, a blank page)', async () => {
    const rebuilt = `console.log(${JSON.stringify('y'.repeat(4000))});`;
    writeFileSync(join(dist, 'assets', 'main-Rebuilt9.js'), rebuilt);
    precompressDir(dist);
    const br = await get('/assets/main-Rebuilt9.js', { 'accept-encoding': 'br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(rebuilt);
    expect((await get('/assets/main-Rebuilt9.js')).body).toBe(rebuilt);
    expect((await t.app.inject({ method: 'HEAD', url: '/assets/main-Rebuilt9.js' })).statusCode).toBe(200);
    // still no twin by its own name, nothing outside the folder, and a missing asset is a 404
    expect((await get('/assets/main-Rebuilt9.js.br')).statusCode).toBe(404);
    expect((await get('/assets/..%2Findex.html')).statusCode).not.toBe(200);
    expect((await get('/assets/no-such-chunk.js')).statusCode).toBe(404);
  });

  it('sends a typed page path to its hash route', async () => {
    for (const [from, to] of [
      ['/dashboard', '/#/dashboard'],
      ['/billing/', '/#/billing'],
      ['/environment?physics=thermal', '/#/environment?physics=thermal'],
      ['/userdatabase/login', '/#/userdatabase/Login'],
      ['/checkout/abc123', '/#/checkout/abc123'],
      ['/billing/manage', '/#/billing/manage'],
      ['/terms-of-service', '/#/terms-of-service'],
    ]) {
      const res = await get(from as string);
      expect(res.statusCode, from).toBe(302);
      expect(res.headers.location, from).toBe(to);
    }
  });

  it('answers other unknown pages with an HTML 404 that links home, and the API with JSON', async () => {
    const res = await get('/no/such/page', { accept: 'text/html' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<h1>Page not found</h1>');
    expect(res.body).toContain('href="/"');

    const api = await get('/api/no-such-call', { accept: 'text/html' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ error: 'not_found' });
    const post = await t.app.inject({ method: 'POST', url: '/nothing', payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toMatchObject({ error: 'not_found' });
  });

  it('compresses API JSON replies of 1 kB and more by Accept-Encoding, small ones not', async () => {
    const plain = await get('/api/docs');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const br = await get('/api/docs', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.body.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gz = await get('/api/docs', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    const small = await get('/api/auth/check', { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ authenticated: false });
  });
});
