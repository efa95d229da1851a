import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieFrom, createTestApp, type TestApp } from './support/test-app.ts';
import { newUserInput, registerTestUser } from './support/users.ts';

// Spec 000 §7 auth calls with the exact field names, and every message of §5/§8 that the server gives.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let ipCounter = 0;
/** A fresh client IP per request keeps these tests clear of the per-IP limits (tested elsewhere). */
const ip = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

const post = (url: string, payload: unknown, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    remoteAddress: ip(),
    headers: cookie ? { cookie } : {},
  });
const check = (cookie?: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/check', headers: cookie ? { cookie } : {} });

describe('GET /api/auth/check', () => {
  it('answers authenticated false and user null without a session', async () => {
    const res = await check();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ authenticated: false, user: null });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers the signed-in user with name, email, plan and status', async () => {
    const u = await registerTestUser(t.app, { name: 'Grace Hopper' }, ip());
    const body = (await check(u.cookie)).json();
    expect(body.authenticated).toBe(true);
    expect(body.user).toEqual({
      id: u.id,
      name: 'Grace Hopper',
      email: u.email,
      username: u.username,
      plan: 'token',
      status: 'active',
      role: 'user',
    });
    expect(JSON.stringify(body)).not.toMatch(/password|argon2/);
  });
});

describe('POST /api/auth/register', () => {
  it('creates the account, trims and lower-cases the email, signs the caller in', async () => {
    const input = newUserInput();
    const res = await post('/api/auth/register', { ...input, email: `  ${input.email.toUpperCase()} ` });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Registration successful' });
    expect(body.user).toMatchObject({ email: input.email, username: input.username, plan: 'token' });
    const me = (await check(cookieFrom(res))).json();
    expect(me.user.email).toBe(input.email);
  });

  it('defaults the plan to token and carries a plan from the query (e.g. single)', async () => {
    const single = newUserInput();
    await post('/api/auth/register', { ...single, plan: 'single' });
    const plain = newUserInput();
    await post('/api/auth/register', plain);
    const rows = await t.ctx.db
      .selectFrom('users')
      .select(['email', 'plan', 'signup_plan'])
      .where('email', 'in', [single.email, plain.email])
      .execute();
    const byEmail = Object.fromEntries(rows.map((r) => [r.email, r]));
    expect(byEmail[single.email]).toEqual({ email: single.email, plan: 'token', signup_plan: 'single' });
    expect(byEmail[plain.email]).toEqual({ email: plain.email, plan: 'token', signup_plan: 'token' });
  });

  it('stores an Argon2id hash with OWASP-or-stronger parameters, never the password', async () => {
    const input = newUserInput();
    await post('/api/auth/register', input);
    const row = await t.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', input.email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=65536,t=3,p=1\$/);
    expect(row.password_hash).not.toContain(input.password);
  });

  it('accepts long passphrases (64 and 200 characters) and logs in with them', async () => {
    for (const length of [64, 200]) {
      const password = 'p4ss phrase '.repeat(30).slice(0, length);
      const input = newUserInput({ password });
      expect((await post('/api/auth/register', input)).statusCode).toBe(201);
      const login = await post('/api/auth/login', { email: input.email, password });
      expect(login.json().success).toBe(true);
    }
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['an empty name', { name: '  ' }, 'Please enter your full name'],
    ['a malformed email', { email: 'ada@@x' }, 'Please enter a valid email address'],
    ['a disposable email', { email: 'ada@mailinator.com' }, 'Disposable email addresses are not accepted'],
    ['a reserved email domain', { email: 'ada@example.com' }, 'This email domain cannot receive mail'],
    ['a short username', { username: 'ab' }, 'Username must be at least 3 characters long'],
    ['a long username', { username: 'a'.repeat(21) }, 'Username must be at most 20 characters long'],
    [
      'a username with spaces',
      { username: 'ada lovelace' },
      'Username can only contain letters, numbers, underscores and hyphens',
    ],
    ['a short password', { password: 'short' }, 'Password must be at least 8 characters long'],
    [
      'a password over the cap',
      { password: 'x'.repeat(1025) },
      'Password must be at most 1024 characters long',
    ],
    [
      'a common password',
      { password: 'Password123' },
      'This password is too common. Please choose a less guessable one',
    ],
    ['terms not accepted', { acceptedTerms: false }, 'You must accept the Terms and Conditions to register'],
    ['an unknown plan id', { plan: 'Gold Plan!' }, 'Unknown plan'],
  ];
  for (const [what, change, message] of refusals) {
    it(`refuses ${what} with "${message}" and creates nothing`, async () => {
      const input = { ...newUserInput(), ...change };
      const res = await post('/api/auth/register', input);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message });
      expect(res.headers['set-cookie']).toBeUndefined();
      const count = await t.ctx.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('username_key', '=', String(input.username).toLowerCase())
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(0);
    });
  }

  it('refuses a body that is not a registration with "Registration failed"', async () => {
    const res = await post('/api/auth/register', { name: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: 'Registration failed', suggestions: [] });
  });

  it('refuses a taken username (any case) with 409, a message and free suggestions', async () => {
    const first = await registerTestUser(t.app, {}, ip());
    const res = await post('/api/auth/register', newUserInput({ username: first.username.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    const body = res.json();
    expect(body).toMatchObject({ success: false, message: 'Username is already taken' });
    expect(body.suggestions.length).toBeGreaterThan(0);
  });
});

describe('POST /api/auth/register with validate_only (username availability)', () => {
  const checkName = (username: unknown) => post('/api/auth/register', { username, validate_only: true });

  it('says a free username is available, with no suggestions', async () => {
    const res = await checkName('free_name_42');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ isValid: true, message: 'Username is available', suggestions: [] });
  });

  it('says a taken one is taken and suggests three free, valid variations of it', async () => {
    const u = await registerTestUser(t.app, { username: 'maxwell' }, ip());
    const body = (await checkName('Maxwell')).json();
    expect(body.isValid).toBe(false);
    expect(body.message).toBe('Username is already taken');
    expect(body.suggestions).toHaveLength(3);
    for (const s of body.suggestions) {
      expect(s).toMatch(/^[A-Za-z0-9_-]{3,20}$/);
      expect(s.toLowerCase()).not.toBe(u.username);
      expect((await checkName(s)).json().isValid).toBe(true);
    }
  });

  it('explains format problems', async () => {
    expect((await checkName('ab')).json()).toMatchObject({
      isValid: false,
      message: 'Username must be at least 3 characters long',
    });
    const spaced = (await checkName('ada lovelace')).json();
    expect(spaced.message).toBe('Username can only contain letters, numbers, underscores and hyphens');
    expect(spaced.suggestions).toContain('ada_lovelace');
  });

  it('refuses a missing username with "Please choose a valid username"', async () => {
    const res = await post('/api/auth/register', { validate_only: true });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      isValid: false,
      message: 'Please choose a valid username',
      suggestions: [],
    });
  });
});

describe('POST /api/validate-email', () => {
  const cases: Array<[string, boolean, string]> = [
    ['Ada.Lovelace+fea@Analytical-Engines.com', true, 'Email address is valid'],
    ['someone@xn--bcher-kva.de', true, 'Email address is valid'],
    ['not-an-email', false, 'Please enter a valid email address'],
    ['two@@ats.com', false, 'Please enter a valid email address'],
    ['dot..dot@mail.com', false, 'Please enter a valid email address'],
    ['user@localhost', false, 'This email domain cannot receive mail'],
    ['user@[127.0.0.1]', false, 'This email domain cannot receive mail'],
    ['user@mail.123', false, 'This email domain cannot receive mail'],
    ['user@example.org', false, 'This email domain cannot receive mail'],
    ['user@lab.test', false, 'This email domain cannot receive mail'],
    ['user@mailinator.com', false, 'Disposable email addresses are not accepted'],
    ['user@inbox.mailinator.com', false, 'Disposable email addresses are not accepted'],
    ['', false, 'Please enter an email address'],
    [`${'a'.repeat(250)}@x.com`, false, 'Email address is too long'],
  ];
  for (const [email, isValid, message] of cases) {
    it(`${JSON.stringify(email.slice(0, 40))} → is_valid ${isValid}`, async () => {
      const res = await post('/api/validate-email', { email });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ is_valid: isValid, message });
    });
  }

  it('refuses a body without an email', async () => {
    const res = await post('/api/validate-email', {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ is_valid: false, message: 'Please enter a valid email address' });
  });
});

describe('POST /api/auth/login', () => {
  it('answers success, user and message, and sets a session cookie', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    const res = await post('/api/auth/login', { email: ` ${u.email.toUpperCase()}`, password: u.password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Login successful' });
    expect(body.user).toMatchObject({ id: u.id, email: u.email, plan: 'token', status: 'active' });
    expect((await check(cookieFrom(res))).json().authenticated).toBe(true);
  });

  it('refuses a wrong password and an unknown email with the same 401 body', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    const wrong = await post('/api/auth/login', { email: u.email, password: 'not the password' });
    const unknown = await post('/api/auth/login', {
      email: 'nobody@analytical-engines.com',
      password: 'whatever1',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      success: false,
      error: 'invalid_credentials',
      message: 'Invalid email or password',
    });
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('refuses missing fields with "Email and password are required"', async () => {
    for (const payload of [{}, { email: 'a@b.com' }, { email: '', password: '' }]) {
      const res = await post('/api/auth/login', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: 'Email and password are required' });
    }
  });

  it('refuses a disabled account after the right password', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    await t.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', u.id).execute();
    const res = await post('/api/auth/login', { email: u.email, password: u.password });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      success: false,
      message: 'This account is disabled. Please contact support.',
    });
    // …and the session it already had stops working.
    expect((await check(u.cookie)).json().authenticated).toBe(false);
  });

  it('upgrades a hash made with weaker parameters on the next login', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    const { hash } = await import('@node-rs/argon2');
    const weak = await hash(u.password, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
    await t.ctx.db.updateTable('users').set({ password_hash: weak }).where('id', '=', u.id).execute();
    expect((await post('/api/auth/login', { email: u.email, password: u.password })).statusCode).toBe(200);
    const row = await t.ctx.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', u.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=65536,t=3,p=1\$/);
  });
});

describe('POST /api/auth/logout', () => {
  it('deletes the session row and clears the cookie', async () => {
    const u = await registerTestUser(t.app, {}, ip());
    const res = await post('/api/auth/logout', undefined, u.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Logged out' });
    expect(String(res.headers['set-cookie'])).toMatch(/^fl_session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/);
    expect((await check(u.cookie)).json()).toEqual({ authenticated: false, user: null });
    const rows = await t.ctx.db
      .selectFrom('sessions')
      .select('id_hash')
      .where('user_id', '=', u.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('answers success without a session too', async () => {
    const res = await post('/api/auth/logout', undefined);
    expect(res.json()).toEqual({ success: true, message: 'Logged out' });
  });
});
