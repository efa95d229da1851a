import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { allowInlineScripts, builtPageScriptHashes } from '../src/http/inline-scripts.ts';
import { SECURITY_HEADER_OPTIONS, securityHeadersOf } from '../src/http/security-headers.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('health', () => {
  it('reports the engine versions, working direct solvers and queue capacity', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/fea/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ok');
    expect(body.engine.available).toBe(true);
    expect(body.engine.versions.ngsolve).toBe('6.2.2608');
    expect(body.engine.direct_solvers).toContain('umfpack');
    expect(body.queue).toMatchObject({ backend: 'embedded', slots: 2 });
  });

  it('reports degraded, not a crash, when the engine cannot start', async () => {
    const broken = await createTestApp({ ENGINE_PYTHON: '/nonexistent/python' });
    try {
      const body = (await broken.app.inject({ method: 'GET', url: '/api/fea/health' })).json();
      expect(body.status).toBe('degraded');
      expect(body.engine.available).toBe(false);
      expect(body.engine.error).toMatch(/Engine could not start/);
    } finally {
      await broken.close();
    }
  });
});

describe('platform', () => {
  it('serves an OpenAPI document generated from the contracts', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
    expect(doc.openapi).toBe('3.1.0');
    const submit = doc.paths['/api/fea/submit'].post;
    const config = submit.requestBody.content['application/json'].schema.properties.config;
    expect(config.properties.pmlThickness).toMatchObject({ minimum: 0.01, maximum: 0.5, default: 0.1 });
    expect(doc.paths['/api/fea/status/{jobId}'].get.parameters[0].name).toBe('jobId');
  });

  it('documents a success response for every operation', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        op: `${method.toUpperCase()} ${path}`,
        // 200, or 201 for a creation (POST /api/user/tokens)
        content: (op.responses['200'] ?? op.responses['201'])?.content,
      })),
    );
    expect(operations.length).toBeGreaterThan(30);
    expect(operations.filter((o) => o.content === undefined).map((o) => o.op)).toEqual([]);
  });

  it('answers errors as {error, message}', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'No route for GET /api/nope' });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['error', 'message']);
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/fea/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
  });

  it('sends the same security headers (computed once) on replies, errors, 404s and polls', async () => {
    // The policy also allows the built index.html's inline script by hash, when web/dist is built
    // (server/test/inline-script-csp.test.ts).
    const built = builtPageScriptHashes(join(loadConfig(process.env).webDistDir, 'index.html'));
    const expected = securityHeadersOf(allowInlineScripts(SECURITY_HEADER_OPTIONS, built));
    expect(expected['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(expected['content-security-policy']).toContain("object-src 'none'");
    expect(expected['x-frame-options']).toBe('SAMEORIGIN');
    expect(expected['cross-origin-opener-policy']).toBe('same-origin');
    expect(expected['cross-origin-embedder-policy']).toBeUndefined(); // off: the viewer loads blobs
    const replies = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/plans' }),
      t.app.inject({ method: 'GET', url: '/api/no-such-route' }),
      t.app.inject({ method: 'GET', url: '/api/fea/status/00000000-0000-4000-8000-000000000000' }),
      t.app.inject({
        method: 'POST',
        url: '/api/fea/submit',
        headers: { 'content-type': 'text/plain' },
        payload: 'x',
      }),
    ]);
    expect(replies.map((r) => r.statusCode)).toEqual([200, 404, 404, 415]);
    for (const r of replies)
      for (const [name, value] of Object.entries(expected)) expect(r.headers[name], name).toBe(value);
  });

  it('keeps generated secrets in a 0600 file that survives restarts', async () => {
    const file = join(t.dataDir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await createTestApp({ DATA_DIR: t.dataDir });
    try {
      expect(again.ctx.secrets).toEqual(t.ctx.secrets);
    } finally {
      await again.app.close();
    }
  });

  it('reads configuration from the environment with documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.databaseUrl).toMatch(/^sqlite:.*data\/fieldline\.sqlite$/);
    expect(c.redisUrl).toBeNull();
    expect(c.secureCookies).toBe(false);
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://fieldline.example' }).secureCookies).toBe(true);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
  });
});
