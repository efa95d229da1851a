import { API_TOKEN_MESSAGES } from '@fieldline/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditTokens, tinyJob } from './support/compute.ts';
import { createTestApp, type TestApp, waitForJob } from './support/test-app.ts';
import { registerTestUser, type TestUser } from './support/users.ts';

// Issue 38: personal API tokens — created and listed on the session only, the secret shown once and
// stored as a keyed hash, `Authorization: Bearer` on the job/geometry/results/materials/usage routes
// with read/run scopes, revocation and expiry at once, rate limits, CSRF exemption for bearer only.
let t: TestApp;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await createTestApp({ API_TOKEN_RATE_PER_MINUTE: '1000', API_TOKEN_IP_RATE_PER_MINUTE: '1000' });
  alice = await registerTestUser(t.app);
  bob = await registerTestUser(t.app);
  await creditTokens(t.ctx, alice.id, 50);
});
afterAll(async () => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function createToken(
  user: TestUser,
  body: Record<string, unknown> = { name: 'ci', scope: 'run' },
): Promise<{ id: string; token: string; [k: string]: unknown }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/user/tokens',
    payload: body,
    headers: { cookie: user.cookie },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const submitWith = (headers: Record<string, string>, payload: unknown = tinyJob()) =>
  t.app.inject({ method: 'POST', url: '/api/fea/submit', payload: payload as object, headers });

describe('creating and listing tokens (session only)', () => {
  it('creates a token: 201 with id, token (fl_ + 256 bits), name, scope, created_at, expires_at', async () => {
    const created = await createToken(alice, {
      name: 'nightly regression',
      scope: 'read',
      expires_in_days: 30,
    });
    expect(Object.keys(created).sort()).toEqual(['created_at', 'expires_at', 'id', 'name', 'scope', 'token']);
    expect(created.token).toMatch(/^fl_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(created.token.slice(3), 'base64url')).toHaveLength(32);
    expect(created).toMatchObject({ name: 'nightly regression', scope: 'read' });
    const days =
      (Date.parse(created.expires_at as string) - Date.parse(created.created_at as string)) / 86400e3;
    expect(days).toBeCloseTo(30, 6);
    const never = await createToken(alice, { name: 'forever', scope: 'run' });
    expect(never.expires_at).toBeNull();
  });

  it('lists tokens without secrets; another user sees none of them', async () => {
    const created = await createToken(alice, { name: 'listed', scope: 'run' });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/user/tokens',
      headers: { cookie: alice.cookie },
    });
    expect(list.statusCode).toBe(200);
    const mine = list.json().tokens.find((x: { id: string }) => x.id === created.id);
    expect(mine).toEqual({
      id: created.id,
      name: 'listed',
      scope: 'run',
      created_at: created.created_at,
      expires_at: null,
      last_used_at: null,
    });
    expect(list.body).not.toContain(created.token);
    expect(list.body).not.toContain('fl_');
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/user/tokens',
      headers: { cookie: bob.cookie },
    });
    expect(other.json().tokens.map((x: { id: string }) => x.id)).not.toContain(created.id);
  });

  it('refuses a bad name, scope or expiry with a 400 naming the field, and writes nothing', async () => {
    const before = await countTokens();
    for (const body of [
      { name: '', scope: 'run' },
      { name: 'x', scope: 'admin' },
      { name: 'x', scope: 'run', expires_in_days: 0 },
      { name: 'x', scope: 'run', expires_in_days: 366 },
      { name: 'x', scope: 'run', expires_in_days: 1.5 },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/user/tokens',
        payload: body,
        headers: { cookie: alice.cookie },
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await countTokens()).toBe(before);
  });

  it('needs a session: no cookie is a 401', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/tokens',
      payload: { name: 'x', scope: 'run' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('the secret is stored as a keyed hash only', () => {
  it('no table holds the secret or its unkeyed SHA-256; the stored hash needs the server key', async () => {
    const { token, id } = await createToken(alice, { name: 'hashed', scope: 'run' });
    const { createHash } = await import('node:crypto');
    const plainSha = createHash('sha256').update(token).digest('hex');
    const row = await t.ctx.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.secret_hash).not.toBe(plainSha);
    // Dump every text column of every table: the secret appears nowhere.
    const dump = await dumpDatabase();
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(token.slice(3));
    expect(dump).not.toContain(plainSha);
  });
});

describe('bearer requests', () => {
  it('a run token submits and polls its user’s job, charged as usual; the ledger and debug panel name the token', async () => {
    const { token, id } = await createToken(alice, { name: 'runner', scope: 'run' });
    const submitted = await submitWith(bearer(token));
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.headers['set-cookie']).toBeUndefined(); // no anonymous session for a token
    const jobId = submitted.json().job_id as string;
    const job = await t.ctx.jobs.get(jobId);
    expect(job).toMatchObject({ owner_user_id: alice.id, owner_session_hash: null, api_token_id: id });

    const done = await waitForBearer(jobId, token);
    expect(done.status, done.error).toBe('completed');
    // The same job is the user's in the browser too, and the dashboard says which token submitted it.
    const viaCookie = await t.app.inject({
      method: 'GET',
      url: `/api/fea/status/${jobId}`,
      headers: { cookie: alice.cookie },
    });
    expect(viaCookie.statusCode).toBe(200);
    const recent = await t.app.inject({
      method: 'GET',
      url: '/api/user/recent-jobs',
      headers: { cookie: alice.cookie },
    });
    expect(recent.json().jobs.find((j: { id: string }) => j.id === jobId).api_token_name).toBe('runner');
    const tasks = await t.app.inject({
      method: 'GET',
      url: '/api/admin/list-recent-ecs-tasks',
      headers: { cookie: alice.cookie },
    });
    const task = tasks.json().tasks.find((x: { taskArn: string }) => x.taskArn.endsWith(jobId));
    expect(task.submittedWithToken).toBe('runner');
    const charge = await t.ctx.db
      .selectFrom('usage_ledger')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('entry_type', '=', 'job_charge')
      .executeTakeFirst();
    expect(charge?.user_id).toBe(alice.id);
    expect(charge?.description).toContain('submitted with API token "runner"');
    // last_used_at is recorded.
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/user/tokens',
      headers: { cookie: alice.cookie },
    });
    expect(listed.json().tokens.find((x: { id: string }) => x.id === id).last_used_at).not.toBeNull();
  });

  it('reads materials and subscription info with a read token', async () => {
    const { token } = await createToken(alice, { name: 'reader', scope: 'read' });
    const materials = await t.app.inject({ method: 'GET', url: '/api/materials', headers: bearer(token) });
    expect(materials.statusCode).toBe(200);
    const info = await t.app.inject({
      method: 'GET',
      url: '/api/user/subscription-info',
      headers: bearer(token),
    });
    expect(info.statusCode).toBe(200);
    expect(info.json().plan).toBe('token');
  });

  it('a read token cannot submit, cancel, save or upload (403 insufficient_scope), and nothing is queued', async () => {
    const { token } = await createToken(alice, { name: 'read-only', scope: 'read' });
    const before = await t.ctx.jobs.countForUser(alice.id);
    const res = await submitWith(bearer(token));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'insufficient_scope', message: API_TOKEN_MESSAGES.readOnly });
    const { token: runToken } = await createToken(alice, { name: 'run-for-cancel', scope: 'run' });
    const jobId = (await submitWith(bearer(runToken))).json().job_id;
    for (const url of [`/api/fea/cancel/${jobId}`, `/api/fea/save/${jobId}`, '/api/convert-step']) {
      const r = await t.app.inject({ method: 'POST', url, headers: bearer(token) });
      expect(r.statusCode, url).toBe(403);
    }
    expect(await t.ctx.jobs.countForUser(alice.id)).toBe(before + 1);
    const polled = await t.app.inject({
      method: 'GET',
      url: `/api/fea/status/${jobId}`,
      headers: bearer(token),
    });
    expect(polled.statusCode).toBe(200);
    await waitForBearer(jobId, runToken);
  });

  it("another user's jobs are 404 with a token too", async () => {
    const { token } = await createToken(bob, { name: 'bob', scope: 'run' });
    const { token: aliceToken } = await createToken(alice, { name: 'alice', scope: 'run' });
    const jobId = (await submitWith(bearer(aliceToken))).json().job_id;
    for (const [method, url] of [
      ['GET', `/api/fea/status/${jobId}`],
      ['GET', `/api/fea/download/${jobId}`],
      ['GET', `/api/fea/results/${jobId}/info`],
      ['GET', `/api/fea/results/${jobId}/binary`],
      ['POST', `/api/fea/cancel/${jobId}`],
    ] as const) {
      const r = await t.app.inject({ method, url, headers: bearer(token) });
      expect(r.statusCode, url).toBe(404);
    }
    await waitForBearer(jobId, aliceToken);
  });

  it('no token works on /api/auth/*, token management, billing or admin (403 token_not_accepted)', async () => {
    const { token } = await createToken(alice, { name: 'everything', scope: 'run' });
    for (const [method, url, payload] of [
      ['GET', '/api/auth/check', undefined],
      ['POST', '/api/auth/logout', undefined],
      ['POST', '/api/auth/login', { email: alice.email, password: alice.password }],
      ['GET', '/api/user/tokens', undefined],
      ['POST', '/api/user/tokens', { name: 'child', scope: 'run' }],
      ['DELETE', `/api/user/tokens/00000000-0000-4000-8000-000000000000`, undefined],
      ['POST', '/api/create-checkout-session', { priceId: 'price_x' }],
      ['POST', '/api/purchase-tokens', { quantity: 10 }],
      ['POST', '/api/billing/portal', undefined],
      ['POST', '/api/user/sync-usage', undefined],
      ['GET', '/api/admin/debug-all-data', undefined],
    ] as const) {
      const r = await t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
      expect(r.statusCode, `${method} ${url}`).toBe(403);
      expect(r.json().error).toBe('token_not_accepted');
    }
    // …and the cookie beside the token does not help: a bearer request is judged by its token alone.
    const both = await t.app.inject({
      method: 'GET',
      url: '/api/user/tokens',
      headers: { ...bearer(token), cookie: alice.cookie },
    });
    expect(both.statusCode).toBe(403);
  });

  it('an unknown or malformed token is a 401 even with a valid session cookie beside it', async () => {
    for (const value of ['Bearer fl_nope', `Bearer fl_${'A'.repeat(43)}`, 'Bearer ', 'bearer x']) {
      const r = await t.app.inject({
        method: 'GET',
        url: '/api/user/subscription-info',
        headers: { authorization: value, cookie: alice.cookie },
      });
      expect(r.statusCode, value).toBe(401);
      expect(r.json().error).toBe('invalid_token');
      expect(r.headers['www-authenticate']).toContain('Bearer');
    }
  });
});

describe('revocation and expiry take effect at once', () => {
  it('a revoked token is 401 on the next request, including polls of the job it submitted', async () => {
    const { token, id } = await createToken(alice, { name: 'to-revoke', scope: 'run' });
    const jobId = (await submitWith(bearer(token))).json().job_id;
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/fea/status/${jobId}`, headers: bearer(token) }))
        .statusCode,
    ).toBe(200);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/tokens/${id}`,
      headers: { cookie: alice.cookie },
    });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ id, revoked: true });
    const poll = await t.app.inject({
      method: 'GET',
      url: `/api/fea/status/${jobId}`,
      headers: bearer(token),
    });
    expect(poll.statusCode).toBe(401);
    expect(poll.json().message).toBe(API_TOKEN_MESSAGES.invalid);
    // Gone from the list; revoking again, or someone else's token, is a 404.
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/user/tokens',
      headers: { cookie: alice.cookie },
    });
    expect(list.json().tokens.map((x: { id: string }) => x.id)).not.toContain(id);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/user/tokens/${id}`,
          headers: { cookie: alice.cookie },
        })
      ).statusCode,
    ).toBe(404);
    const bobs = await createToken(bob, { name: 'bobs', scope: 'run' });
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/user/tokens/${bobs.id}`,
          headers: { cookie: alice.cookie },
        })
      ).statusCode,
    ).toBe(404);
    // The job itself still belongs to the user.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/fea/status/${jobId}`,
          headers: { cookie: alice.cookie },
        })
      ).statusCode,
    ).toBe(200);
    await waitForJob(t.app, jobId, alice.cookie);
  });

  it('an expired token is 401', async () => {
    const { token, id } = await createToken(alice, { name: 'short', scope: 'read', expires_in_days: 1 });
    const ok = await t.app.inject({ method: 'GET', url: '/api/materials', headers: bearer(token) });
    expect(ok.statusCode).toBe(200);
    // A day later (the row's expiry moved into the past, as the clock would).
    await t.ctx.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    const late = await t.app.inject({ method: 'GET', url: '/api/materials', headers: bearer(token) });
    expect(late.statusCode).toBe(401);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/user/tokens',
      headers: { cookie: alice.cookie },
    });
    expect(list.json().tokens.map((x: { id: string }) => x.id)).not.toContain(id);
  });
});

describe('CSRF: bearer requests are exempt, and only they', () => {
  const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

  it('a cross-site-looking request with a token is served; the same with the cookie is refused', async () => {
    const { token } = await createToken(alice, { name: 'csrf', scope: 'run' });
    const withToken = await submitWith({ ...crossSite, ...bearer(token) });
    expect(withToken.statusCode, withToken.body).toBe(200);
    const withCookie = await submitWith({ ...crossSite, cookie: alice.cookie });
    expect(withCookie.statusCode).toBe(403);
    expect(withCookie.json().error).toBe('csrf_rejected');
    // Another Authorization scheme is no exemption.
    const basic = await submitWith({ ...crossSite, cookie: alice.cookie, authorization: 'Basic YTpi' });
    expect(basic.statusCode).toBe(403);
    await waitForBearer(withToken.json().job_id, token);
  });
});

describe('rate limits per token and per IP', () => {
  let limited: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    limited = await createTestApp(
      { API_TOKEN_RATE_PER_MINUTE: '3', API_TOKEN_IP_RATE_PER_MINUTE: '5' },
      { startQueue: false },
    );
    user = await registerTestUser(limited.app);
  });
  afterAll(async () => limited.close());

  const make = async () => {
    const res = await limited.app.inject({
      method: 'POST',
      url: '/api/user/tokens',
      payload: { name: 'limited', scope: 'read' },
      headers: { cookie: user.cookie },
    });
    return res.json().token as string;
  };
  const get = (token: string, ip: string) =>
    limited.app.inject({ method: 'GET', url: '/api/materials', headers: bearer(token), remoteAddress: ip });

  it('the 4th request of a token in a minute is 429 with Retry-After, from any IP', async () => {
    const token = await make();
    const codes = [];
    for (const ip of ['10.9.0.1', '10.9.0.2', '10.9.0.3', '10.9.0.4'])
      codes.push((await get(token, ip)).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    const refused = await get(token, '10.9.0.5');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/with this API token/);
    // Another token of the same user is not held back by the first one's count.
    expect((await get(await make(), '10.9.0.6')).statusCode).toBe(200);
  });

  it('the 6th bearer request from one IP in a minute is 429, whatever the tokens (even invalid ones)', async () => {
    const tokens = [await make(), await make()];
    const ip = '10.9.1.1';
    const codes = [];
    for (let i = 0; i < 5; i++)
      codes.push((await get(i === 4 ? `fl_${'B'.repeat(43)}` : (tokens[i % 2] as string), ip)).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 401]);
    const sixth = await get(tokens[0] as string, ip);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toMatch(/from this address/);
  });
});

async function waitForBearer(jobId: string, token: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/fea/status/${jobId}`,
      headers: bearer(token),
    });
    const body = res.json();
    if (!['queued', 'running'].includes(body.status)) return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${jobId} did not finish`);
}

async function countTokens(): Promise<number> {
  const row = await t.ctx.db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every row of every table, as text. */
async function dumpDatabase(): Promise<string> {
  const tables =
    t.ctx.dialect === 'postgres'
      ? (
          await sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
            t.ctx.db,
          )
        ).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(t.ctx.db))
          .rows;
  let out = '';
  for (const { name } of tables) {
    const rows = await sql`select * from ${sql.table(name)}`.execute(t.ctx.db);
    out += JSON.stringify(rows.rows);
  }
  return out;
}

describe('/api/docs: the bearer scheme per route, and what schemathesis found', () => {
  type Op = {
    security?: Record<string, string[]>[];
    parameters?: { name: string; schema: { maxLength?: number } }[];
  };
  let doc: {
    paths: Record<string, Record<string, Op>>;
    components: { securitySchemes: Record<string, unknown> };
  };
  beforeAll(async () => {
    doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
  });

  it('declares bearerAuth with the scope each token route needs, and none on auth, tokens or billing', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const security = (path: string, method: string) => doc.paths[path]?.[method]?.security ?? [];
    expect(security('/api/fea/submit', 'post')).toContainEqual({ bearerAuth: ['run'] });
    expect(security('/api/convert-step', 'post')).toContainEqual({ bearerAuth: ['run'] });
    expect(security('/api/fea/cancel/{jobId}', 'post')).toContainEqual({ bearerAuth: ['run'] });
    expect(security('/api/fea/status/{jobId}', 'get')).toContainEqual({ bearerAuth: ['read'] });
    expect(security('/api/materials', 'get')).toContainEqual({ bearerAuth: ['read'] });
    expect(security('/api/user/subscription-info', 'get')).toEqual([
      { bearerAuth: ['read'] },
      { sessionCookie: [] },
    ]);
    for (const [path, method] of [
      ['/api/auth/login', 'post'],
      ['/api/user/tokens', 'post'],
      ['/api/user/tokens', 'get'],
      ['/api/create-checkout-session', 'post'],
      ['/api/purchase-tokens', 'post'],
    ] as const) {
      expect(
        security(path, method).some((s) => 'bearerAuth' in s),
        `${method} ${path}`,
      ).toBe(false);
    }
  });

  it('declares the router’s 100-character limit on string path parameters; a longer one is a 404, not a 414', async () => {
    for (const path of ['/api/checkout/local/{id}', '/api/uploads/{id}/save']) {
      const op = doc.paths[path]?.get ?? doc.paths[path]?.post;
      expect(op?.parameters?.[0]?.schema.maxLength, path).toBe(100);
    }
    const long = await t.app.inject({
      method: 'POST',
      url: `/api/uploads/${'0'.repeat(101)}/save`,
      headers: { cookie: alice.cookie },
    });
    expect(long.statusCode).toBe(404);
    expect(long.json()).toEqual({ error: 'not_found', message: 'Not found' });
  });

  it('declares that a submission needs vertices and tetrahedra, or (meshing) faces, bodies or an upload', async () => {
    const submit = doc.paths['/api/fea/submit']?.post as unknown as {
      requestBody: {
        content: {
          'application/json': { schema: { anyOf: { properties: { mesh_data: { required: string[] } } }[] } };
        };
      };
    };
    const needs = submit.requestBody.content['application/json'].schema.anyOf.map(
      (o) => o.properties.mesh_data.required,
    );
    expect(needs).toEqual([
      ['vertices', 'tetrahedra'],
      ['vertices', 'faces'],
      ['meshes'],
      ['source_upload_id'],
    ]);
    // The case schemathesis sent: an empty mesh_data is outside the document and refused with the spec's text.
    const empty = await submitWith(
      { cookie: alice.cookie },
      { mesh_data: {}, config: { analysisType: 'em' } },
    );
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Invalid mesh data: No vertices found.');
  });
});
