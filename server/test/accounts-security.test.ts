import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireAdmin, requireUser } from '../src/accounts/index.ts';
import { ownerOf } from '../src/jobs/job-owner.ts';
import { ensureSession } from '../src/sessions/session-plugin.ts';
import { cookieFrom, createTestApp, type TestApp } from './support/test-app.ts';
import { newUserInput, registerTestAdmin, registerTestUser } from './support/users.ts';

// Sessions, CSRF, rate limits, enumeration resistance, roles and guards (webstack-anchors §2).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      startQueue: false,
      configure(app, ctx) {
        // Probe routes for the guards other modules use.
        app.get('/api/probe/user', async (request) => ({ id: requireUser(request).id }));
        app.get('/api/probe/admin', async (request) => ({ id: requireAdmin(request).id }));
        // An anonymous visitor's job, as the simulator creates them before sign-in.
        app.post('/api/probe/anonymous-job', async (request, reply) => {
          const session = await ensureSession(request, reply, ctx.sessions, ctx.sessionCookie);
          const job = await ctx.jobs.create({
            owner: ownerOf(session),
            kind: 'meshing',
            analysisType: 'tetra-only',
            queue: 'standard',
            input: { probe: true },
          });
          return { jobId: job.id };
        });
      },
    },
  );
});
afterAll(async () => {
  await t.close();
});

let ipCounter = 0;
const ip = () => `10.2.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
type Headers = Record<string, string>;
const post = (url: string, payload?: unknown, headers: Headers = {}, remoteAddress = ip()) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress });
const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const authenticated = async (cookie: string) => (await get('/api/auth/check', cookie)).json().authenticated;

describe('session cookie', () => {
  it('is an opaque 256-bit random id, HttpOnly, SameSite=Lax, Path=/, no Domain, not Secure over http', async () => {
    const res = await post('/api/auth/register', newUserInput());
    const header = String(res.headers['set-cookie']);
    const [pair, ...attributes] = header.split(/;\s*/);
    const [name, value] = (pair ?? '').split('=');
    expect(name).toBe('fl_session');
    expect(Buffer.from(value ?? '', 'base64url')).toHaveLength(32);
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/']));
    expect(attributes.some((a) => /^Max-Age=\d+$/.test(a))).toBe(true);
    expect(attributes.some((a) => /^Domain=/i.test(a))).toBe(false);
    expect(attributes).not.toContain('Secure');
    // Only a keyed hash of the id is stored.
    const rows = await t.ctx.db.selectFrom('sessions').select('id_hash').execute();
    expect(rows.map((r) => r.id_hash)).not.toContain(value);
    expect(rows.map((r) => r.id_hash)).toContain(t.ctx.sessions.hash(value ?? ''));
  });

  it('is Secure when the app is served over HTTPS', async () => {
    const secure = await createTestApp({ PUBLIC_ORIGIN: 'https://fieldline.example' }, { startQueue: false });
    try {
      const res = await secure.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: newUserInput(),
      });
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });
});

describe('session rotation and revocation', () => {
  it('issues a new id at login; the pre-login id is dead', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    const anon = cookieFrom(await post('/api/probe/anonymous-job'));
    const login = await post('/api/auth/login', { email: u.email, password: u.password }, { cookie: anon });
    const fresh = cookieFrom(login);
    expect(fresh).not.toBe(anon);
    expect(await authenticated(fresh)).toBe(true);
    expect(await authenticated(anon)).toBe(false);
    const hashes = (await t.ctx.db.selectFrom('sessions').select('id_hash').execute()).map((r) => r.id_hash);
    expect(hashes).not.toContain(t.ctx.sessions.hash(anon.split('=')[1] ?? ''));
  });

  it('replaces a signed-in session too (logging in again, or as someone else)', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    const again = cookieFrom(
      await post('/api/auth/login', { email: u.email, password: u.password }, { cookie: u.cookie }),
    );
    expect(again).not.toBe(u.cookie);
    expect(await authenticated(u.cookie)).toBe(false);
    expect(await authenticated(again)).toBe(true);
  });

  it('ends a session whose row is deleted on the server', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    await t.ctx.db.deleteFrom('sessions').where('user_id', '=', u.id).execute();
    expect(await authenticated(u.cookie)).toBe(false);
  });

  it('logging out one device leaves the user’s other sessions alone', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    const other = cookieFrom(await post('/api/auth/login', { email: u.email, password: u.password }));
    await post('/api/auth/logout', undefined, { cookie: u.cookie });
    expect(await authenticated(u.cookie)).toBe(false);
    expect(await authenticated(other)).toBe(true);
  });
});

describe('a guest’s jobs follow them when they sign in', () => {
  it('moves the anonymous session’s jobs to the user at login', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    const first = await post('/api/probe/anonymous-job');
    const anon = cookieFrom(first);
    const { jobId } = first.json();
    expect((await get(`/api/fea/status/${jobId}`, anon)).statusCode).toBe(200);
    const login = await post('/api/auth/login', { email: u.email, password: u.password }, { cookie: anon });
    const signedIn = cookieFrom(login);
    expect((await get(`/api/fea/status/${jobId}`, signedIn)).statusCode).toBe(200);
    const row = await t.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ owner_user_id: u.id, owner_session_hash: null });
    // The user's other sessions see it; another user does not.
    const other = await registerTestUser(t.app, {}, ip());
    expect((await get(`/api/fea/status/${jobId}`, other.cookie)).statusCode).toBe(404);
  });

  it('moves them at registration, and a failed registration moves nothing', async () => {
    const first = await post('/api/probe/anonymous-job');
    const anon = cookieFrom(first);
    const { jobId } = first.json();
    const refused = await post('/api/auth/register', newUserInput({ password: 'short' }), { cookie: anon });
    expect(refused.statusCode).toBe(400);
    expect((await get(`/api/fea/status/${jobId}`, anon)).statusCode).toBe(200);
    const res = await post('/api/auth/register', newUserInput(), { cookie: anon });
    expect(res.statusCode).toBe(201);
    expect((await get(`/api/fea/status/${jobId}`, cookieFrom(res))).statusCode).toBe(200);
    expect(await authenticated(anon)).toBe(false);
  });
});

describe('CSRF', () => {
  const login = { email: 'nobody@analytical-engines.com', password: 'whatever1' };
  const origin = () => t.ctx.config.publicOrigin;

  it('refuses cross-site and same-site (sibling) requests by Sec-Fetch-Site', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const res = await post('/api/auth/login', login, { 'sec-fetch-site': site });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'csrf_rejected', message: 'Cross-site request refused' });
    }
  });

  it('refuses a foreign Origin when Sec-Fetch-Site is absent', async () => {
    const res = await post('/api/auth/logout', undefined, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect((await post('/api/auth/register', newUserInput(), { origin: 'null' })).statusCode).toBe(403);
  });

  it('lets our own pages through (same-origin fetch, our Origin)', async () => {
    expect(
      (await post('/api/auth/login', login, { 'sec-fetch-site': 'same-origin', origin: origin() }))
        .statusCode,
    ).toBe(401);
    expect((await post('/api/auth/login', login, { origin: origin() })).statusCode).toBe(401);
  });

  it('does not log a victim out or in from another site, even with their cookie', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    const res = await post('/api/auth/logout', undefined, {
      cookie: u.cookie,
      'sec-fetch-site': 'cross-site',
    });
    expect(res.statusCode).toBe(403);
    expect(await authenticated(u.cookie)).toBe(true);
  });

  it('takes JSON bodies only (no text/plain or form posts)', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await post('/api/auth/login', 'email=a@b.com&password=x', { 'content-type': type });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({
        error: 'unsupported_media_type',
        message: 'Send the request body as application/json',
      });
    }
  });

  it('lets multipart through on the upload path and exempts the payment webhook', async () => {
    const upload = await post('/api/convert-step', '--x--', {
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect([403, 415]).not.toContain(upload.statusCode);
    const webhook = await post('/api/stripe/webhook', '{}', {
      'content-type': 'application/json',
      'sec-fetch-site': 'cross-site',
    });
    expect(webhook.statusCode).not.toBe(403);
  });

  it('leaves safe methods alone', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/check',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('rate limits', () => {
  it('locks one account after 10 attempts in 15 minutes, from any number of IPs, with 429 and a clear message', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    for (let i = 0; i < 10; i++) {
      expect(
        (await post('/api/auth/login', { email: u.email, password: `wrong-${i}-pass` })).statusCode,
      ).toBe(401);
    }
    const locked = await post('/api/auth/login', { email: u.email, password: u.password });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      success: false,
      error: 'rate_limited',
      message: 'Too many login attempts. Please try again in 15 minutes.',
    });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    // Another account is unaffected.
    const v = await registerTestUser(t.app, {}, ip());
    expect((await post('/api/auth/login', { email: v.email, password: v.password })).statusCode).toBe(200);
  });

  it('a successful login clears the account’s count (own typos never lock a user out)', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 9; i++) {
        expect(
          (await post('/api/auth/login', { email: u.email, password: `typo-${i}-pass` })).statusCode,
        ).toBe(401);
      }
      expect((await post('/api/auth/login', { email: u.email, password: u.password })).statusCode).toBe(200);
    }
  });

  it('limits one IP to 50 login attempts in 15 minutes across accounts', async () => {
    const from = '10.9.9.9';
    for (let i = 0; i < 50; i++) {
      const res = await post(
        '/api/auth/login',
        { email: `guess${i}@analytical-engines.com`, password: 'x1234567' },
        {},
        from,
      );
      expect(res.statusCode).toBe(401);
    }
    const res = await post(
      '/api/auth/login',
      { email: 'another@analytical-engines.com', password: 'x1234567' },
      {},
      from,
    );
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe('Too many login attempts. Please try again in 15 minutes.');
  });

  it('limits registrations per IP (10 an hour) and per email (5 an hour)', async () => {
    const from = '10.9.9.10';
    for (let i = 0; i < 10; i++) {
      expect(
        (await post('/api/auth/register', { ...newUserInput(), acceptedTerms: false }, {}, from)).statusCode,
      ).toBe(400);
    }
    const res = await post('/api/auth/register', newUserInput(), {}, from);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({
      success: false,
      message: 'Too many registration attempts. Please try again in 60 minutes.',
    });
    const input = newUserInput();
    for (let i = 0; i < 5; i++) await post('/api/auth/register', { ...input, acceptedTerms: false });
    expect((await post('/api/auth/register', input)).statusCode).toBe(429);
  });

  it('limits email checks per IP (60 / 10 min) and per address (30 / 10 min)', async () => {
    const from = '10.9.9.11';
    for (let i = 0; i < 60; i++) {
      expect((await post('/api/validate-email', { email: `x${i}@mail.com` }, {}, from)).statusCode).toBe(200);
    }
    const res = await post('/api/validate-email', { email: 'y@mail.com' }, {}, from);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({
      is_valid: false,
      message: 'Too many email checks. Please try again in 10 minutes.',
    });
    for (let i = 0; i < 30; i++) await post('/api/validate-email', { email: 'same@mail.com' });
    expect((await post('/api/validate-email', { email: 'SAME@mail.com' })).statusCode).toBe(429);
  });

  it('limits username checks per IP (60 / 10 min)', async () => {
    const from = '10.9.9.12';
    for (let i = 0; i < 60; i++) {
      await post('/api/auth/register', { username: `name${i}`, validate_only: true }, {}, from);
    }
    const res = await post('/api/auth/register', { username: 'another', validate_only: true }, {}, from);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({
      isValid: false,
      suggestions: [],
      message: 'Too many username checks. Please try again in 10 minutes.',
    });
  });

  it('keys on the peer address, not a spoofed X-Forwarded-For (TRUST_PROXY is off)', async () => {
    const from = '10.9.9.13';
    for (let i = 0; i < 60; i++) {
      await post(
        '/api/validate-email',
        { email: `z${i}@mail.com` },
        { 'x-forwarded-for': `1.2.3.${i}` },
        from,
      );
    }
    const res = await post(
      '/api/validate-email',
      { email: 'q@mail.com' },
      { 'x-forwarded-for': '9.9.9.9' },
      from,
    );
    expect(res.statusCode).toBe(429);
  });
});

describe('account enumeration', () => {
  it('the email check answers the same for an address with an account and one without', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    const taken = await post('/api/validate-email', { email: u.email });
    const free = await post('/api/validate-email', { email: `free-${u.email}` });
    expect(taken.statusCode).toBe(free.statusCode);
    expect(taken.json()).toEqual(free.json());
    expect(taken.json()).toEqual({ is_valid: true, message: 'Email address is valid' });
  });

  it('registration with a taken email fails with a generic message that names no account', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    const res = await post('/api/auth/register', newUserInput({ email: u.email.toUpperCase() }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: 'registration_failed',
      message: 'Registration failed. If you already have an account, please log in.',
      suggestions: [],
    });
    expect(res.body).not.toContain(u.email);
    expect(res.body).not.toMatch(/exist|taken|registered/i);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('username suggestions are built from the username, never from anyone’s email', async () => {
    await registerTestUser(t.app, { username: 'tesla', email: 'nikola.secret@wardenclyffe.com' }, ip());
    const body = (await post('/api/auth/register', { username: 'tesla', validate_only: true })).json();
    expect(body.suggestions).toHaveLength(3);
    for (const s of body.suggestions) {
      expect(s.startsWith('tesla')).toBe(true);
      expect(s).not.toMatch(/nikola|secret|wardenclyffe/);
    }
  });

  it('login takes about as long for an unknown email as for a wrong password', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    const time = async (email: string) => {
      const t0 = performance.now();
      const res = await post('/api/auth/login', { email, password: 'wrong password 1' });
      expect(res.statusCode).toBe(401);
      return performance.now() - t0;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    await time(`warm-up-${u.email}`);
    for (let i = 0; i < 7; i++) {
      known.push(await time(u.email));
      unknown.push(await time(`nobody${i}@analytical-engines.com`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const [k, n] = [median(known), median(unknown)];
    console.log(
      `login timing: wrong password ${k.toFixed(1)} ms, unknown email ${n.toFixed(1)} ms (medians of 7)`,
    );
    // Without the dummy hash an unknown email answers in ~2 ms against ~100 ms: far outside this band,
    // which is wide only to ride out a busy machine.
    expect(n).toBeGreaterThan(k * 0.5);
    expect(n).toBeLessThan(k * 2);
  });
});

describe('roles and guards', () => {
  it('requireUser: 401 for guests, the user for a session', async () => {
    const guest = await get('/api/probe/user');
    expect(guest.statusCode).toBe(401);
    expect(guest.json()).toEqual({ error: 'unauthenticated', message: 'Please log in to continue' });
    const u = await registerTestUser(t.app, {}, ip());
    expect((await get('/api/probe/user', u.cookie)).json()).toEqual({ id: u.id });
  });

  it('requireAdmin: 401 for guests, 403 for users, the admin after `admin grant`; revoke takes it back', async () => {
    expect((await get('/api/probe/admin')).statusCode).toBe(401);
    const u = await registerTestUser(t.app, {}, ip());
    const denied = await get('/api/probe/admin', u.cookie);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: 'forbidden', message: 'Administrator access required' });

    const granted = await t.ctx.accounts.setRole(u.email.toUpperCase(), 'admin');
    expect(granted?.role).toBe('admin');
    // The role change ended the old session: the new role starts with a new session id.
    expect(await authenticated(u.cookie)).toBe(false);
    const admin = cookieFrom(await post('/api/auth/login', { email: u.email, password: u.password }));
    expect((await get('/api/probe/admin', admin)).json()).toEqual({ id: u.id });
    expect((await get('/api/auth/check', admin)).json().user.role).toBe('admin');

    await t.ctx.accounts.setRole(u.email, 'user');
    expect((await get('/api/probe/admin', admin)).statusCode).toBe(401);
    expect(await t.ctx.accounts.setRole('nobody@analytical-engines.com', 'admin')).toBeNull();
  });

  it('`fieldline admin grant <email>` on the command line makes an admin', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts', 'admin', ...args], {
        cwd: resolve(import.meta.dirname, '..'),
        env: {
          ...process.env,
          DATA_DIR: t.dataDir,
          DATABASE_URL: t.ctx.config.databaseUrl,
          LOG_LEVEL: 'warn',
        },
      });
    const { stdout } = await run('grant', `  ${u.email.toUpperCase()} `);
    expect(stdout).toContain(`${u.email} is now an administrator`);
    const row = await t.ctx.db
      .selectFrom('users')
      .select('role')
      .where('id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect(row.role).toBe('admin');
    await expect(run('grant', 'nobody@analytical-engines.com')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No user has the email nobody@analytical-engines.com'),
    });
  });

  it('the registerTestAdmin helper gives other suites a signed-in admin', async () => {
    const admin = await registerTestAdmin(t.app, t.ctx);
    expect((await get('/api/probe/admin', admin.cookie)).json()).toEqual({ id: admin.id });
  });

  it('the role cannot be set through registration', async () => {
    const res = await post('/api/auth/register', { ...newUserInput(), role: 'admin' });
    expect(res.statusCode).toBe(201);
    expect(res.json().user.role).toBe('user');
  });
});
