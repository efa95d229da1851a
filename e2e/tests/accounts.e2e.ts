import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serverAndBrowser } from '../support/stand.ts';

// Spec 000 §2 auth flows in Chromium against the real server.
let context: BrowserContext;
let page: Page;

const stand = serverAndBrowser();
afterEach(async () => {
  await context?.close();
});

async function freshPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
  context = await stand.browser.newContext({ viewport });
  page = await context.newPage();
  return page;
}

const url = (hashPath: string) => `${stand.server.origin}/#${hashPath}`;
const hashPath = (p: Page) => decodeURIComponent(new URL(p.url()).hash.slice(1));
let n = 0;
const person = () => {
  n += 1;
  const tag = `${Date.now().toString(36)}${n}`;
  return {
    name: `Ada Lovelace ${n}`,
    email: `ada.${tag}@analytical-engines.com`,
    username: `ada_${tag}`.slice(0, 20),
    password: 'correct horse battery staple',
  };
};

/** Fills the register form; leaves the terms box alone. */
async function fillRegistration(p: Page, who: ReturnType<typeof person>) {
  await p.getByLabel('Full Name').fill(who.name);
  await p.getByLabel('Email').fill(who.email);
  await p.getByLabel('Username').fill(who.username);
  await p.getByLabel('Password', { exact: true }).fill(who.password);
  await p.getByLabel('Confirm Password').fill(who.password);
}

async function register(p: Page, who: ReturnType<typeof person>) {
  await p.goto(url('/userdatabase/Register'));
  await fillRegistration(p, who);
  await p.getByLabel(/I accept the/).check();
  const submit = p.getByRole('button', { name: 'Create Account' });
  await expect.poll(() => submit.isEnabled(), { timeout: 10_000 }).toBe(true);
  await submit.click();
}

describe('register', () => {
  it('keeps Create Account disabled until email and username pass and the terms are accepted', async () => {
    const p = await freshPage();
    await p.goto(url('/userdatabase/Register'));
    const submit = p.getByRole('button', { name: 'Create Account' });
    expect(await submit.isDisabled()).toBe(true);
    await expect.poll(() => p.getByText("You're signing up for the Token plan.").isVisible()).toBe(true);

    const who = person();
    await p.getByLabel('Email').fill('ada@mailinator.com');
    await expect.poll(() => p.getByText('Please use a valid email address').isVisible()).toBe(true);
    await p.getByLabel('Email').fill('not-an-email');
    await expect.poll(() => p.getByText('Please enter a valid email address').isVisible()).toBe(true);
    await p.getByLabel('Username').fill('ab');
    await expect
      .poll(() => p.getByText('Username must be at least 3 characters long').isVisible())
      .toBe(true);

    await fillRegistration(p, who);
    await expect.poll(() => p.getByText('Email address is valid').isVisible()).toBe(true);
    await expect.poll(() => p.getByText('Username is available').isVisible()).toBe(true);
    expect(await submit.isDisabled()).toBe(true); // terms not accepted yet
    await p.getByLabel(/I accept the/).check();
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await p.getByLabel('Email').fill('ada@example.com'); // a reserved domain: the check fails again
    await expect.poll(() => submit.isDisabled()).toBe(true);
  });

  it('offers suggestions for a taken username', async () => {
    const p = await freshPage();
    const first = person();
    await register(p, first);
    await expect.poll(() => hashPath(p)).toBe('/');
    await p.getByRole('button', { name: 'Log Out' }).click();
    await expect.poll(() => p.getByRole('button', { name: 'Sign Up' }).isVisible()).toBe(true);
    await p.goto(url('/userdatabase/Register'));
    await p.getByLabel('Username').fill(first.username);
    await expect.poll(() => p.getByText('Username is already taken').isVisible()).toBe(true);
    const chips = p.locator('.suggestions .suggestion-chip');
    await expect.poll(() => chips.count()).toBe(3);
    const suggestion = (await chips.first().textContent()) ?? '';
    await chips.first().click();
    expect(await p.getByLabel('Username').inputValue()).toBe(suggestion);
    await expect.poll(() => p.getByText('Username is available').isVisible()).toBe(true);
  });

  it('registers, logs in and lands on / with the welcome line; logging out returns to the guest bar', async () => {
    const p = await freshPage();
    const who = person();
    await register(p, who);
    await expect.poll(() => hashPath(p)).toBe('/');
    await expect.poll(() => p.getByText(`Welcome, ${who.name}`).isVisible()).toBe(true);
    for (const name of ['Dashboard', 'Billing', 'Log Out']) {
      expect(await p.getByRole('button', { name }).isVisible()).toBe(true);
    }
    // The session lives only in an HttpOnly cookie: nothing for scripts to steal.
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'fl_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const stored = await p.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).toBe('{}');

    await p.getByRole('button', { name: 'Log Out' }).click();
    await expect.poll(() => p.getByRole('button', { name: 'Sign Up' }).isVisible()).toBe(true);
    expect(await p.getByText(`Welcome, ${who.name}`).count()).toBe(0);
    const check = await p.evaluate(async () => (await fetch('/api/auth/check')).json());
    expect(check).toEqual({ authenticated: false, user: null });
  });
});

describe('login and guards', () => {
  let who: ReturnType<typeof person>;
  beforeAll(async () => {
    who = person();
    const res = await fetch(`${stand.server.origin}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...who, acceptedTerms: true }),
    });
    expect(res.status).toBe(201);
  });

  async function logIn(p: Page, password = who.password) {
    await p.getByLabel('Email').fill(who.email);
    await p.getByLabel('Password').fill(password);
    await p.getByRole('button', { name: 'Log In' }).click();
  }

  it('a guest sent to login from a protected page returns there after logging in', async () => {
    const p = await freshPage();
    await p.goto(url('/billing'));
    await expect.poll(() => hashPath(p)).toBe('/userdatabase/Login');
    await logIn(p);
    await expect.poll(() => hashPath(p)).toBe('/billing');
    // The login entry was replaced: Back leaves the app's protected page for what came before it.
    expect(await p.evaluate(() => history.length)).toBeLessThanOrEqual(2);
  });

  it('without a carried path, login goes to /dashboard; a wrong password shows the server message', async () => {
    const p = await freshPage();
    await p.goto(url('/userdatabase/Login'));
    await logIn(p, 'wrong password!');
    await expect.poll(() => p.getByRole('alert').textContent()).toBe('Invalid email or password');
    await logIn(p);
    await expect.poll(() => hashPath(p)).toBe('/dashboard');
    await expect.poll(() => p.getByRole('heading', { name: `Welcome, ${who.name}` }).isVisible()).toBe(true);
  });

  it('guards redirect both ways: guest → login, signed-in → dashboard', async () => {
    const p = await freshPage();
    await p.goto(url('/dashboard'));
    await expect.poll(() => hashPath(p)).toBe('/userdatabase/Login');
    await logIn(p);
    await expect.poll(() => hashPath(p)).toBe('/dashboard');
    for (const guestOnly of [
      '/userdatabase/Login',
      '/userdatabase/Register',
      '/userdatabase/ForgotPassword',
    ]) {
      await p.goto(url(guestOnly));
      await expect.poll(() => hashPath(p)).toBe('/dashboard');
    }
  });

  it('Subscribe goes to register with plan=single when logged out and to /billing when logged in', async () => {
    const p = await freshPage();
    await p.goto(url('/'));
    await p.getByRole('button', { name: 'Subscribe for $5/month' }).click();
    await expect.poll(() => hashPath(p)).toBe('/userdatabase/Register?plan=single');
    await expect.poll(() => p.getByText("You're signing up for the Single plan.").isVisible()).toBe(true);

    await p.goto(url('/userdatabase/Login'));
    await logIn(p);
    await expect.poll(() => hashPath(p)).toBe('/dashboard');
    await p.goto(url('/'));
    // Signed in, register clicks do nothing (spec 000 §2).
    await p.getByRole('button', { name: 'Get Started' }).click();
    await p.getByRole('button', { name: 'Create Account' }).click();
    await new Promise((r) => setTimeout(r, 300));
    expect(hashPath(p)).toBe('/');
    await p.getByRole('button', { name: 'Subscribe for $5/month' }).click();
    await expect.poll(() => hashPath(p)).toBe('/billing');
  });

  it('shows a carried message as a success banner on the login page', async () => {
    const p = await freshPage();
    await p.goto(url('/'));
    await p.evaluate(() => {
      history.pushState(
        { usr: { message: 'Registration successful! Please log in.' }, key: 'x', idx: 1 },
        '',
        '#/userdatabase/Login',
      );
      window.dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
    });
    await expect
      .poll(() => p.getByRole('status').first().textContent())
      .toBe('Registration successful! Please log in.');
  });
});

describe('landing page and public screens', () => {
  it('shows the hero tagline, the sections and the footer; Get Started goes to register', async () => {
    const p = await freshPage();
    await p.goto(url('/'));
    await expect.poll(() => p.locator('h1').textContent()).toBe('Fieldline Open Beta');
    expect(
      await p
        .getByText('Upload your design. Run FEA in the browser. No installs. Results in minutes.')
        .isVisible(),
    ).toBe(true);
    for (const heading of ['Upload & Run', 'How It Works', 'Features', 'Pricing', 'Example Apps']) {
      expect(await p.getByRole('heading', { name: heading, exact: true }).isVisible()).toBe(true);
    }
    for (const link of [
      'Community',
      'Documentation',
      'Blog',
      'Support',
      'Privacy Policy',
      'Terms of Service',
    ]) {
      expect(await p.getByRole('link', { name: link }).isVisible()).toBe(true);
    }
    expect(await p.getByText(/© \d{4} Fieldline/).isVisible()).toBe(true);
    await p.getByRole('button', { name: 'Open Viewer' }).click();
    await expect.poll(() => hashPath(p)).toBe('/environment');
    await p.goto(url('/'));
    await p.getByRole('button', { name: 'Get Started' }).click();
    await expect.poll(() => hashPath(p)).toBe('/userdatabase/Register');
  });

  it('hides Log In on small screens and keeps Sign Up', async () => {
    const p = await freshPage({ width: 375, height: 740 });
    await p.goto(url('/'));
    await expect.poll(() => p.getByRole('button', { name: 'Sign Up' }).isVisible()).toBe(true);
    expect(await p.getByRole('button', { name: 'Log In' }).isVisible()).toBe(false);
  });

  it('forgot password shows "An email has been sent" after a simulated second, with no request', async () => {
    const p = await freshPage();
    const posts: string[] = [];
    p.on('request', (r) => {
      if (r.method() !== 'GET') posts.push(r.url());
    });
    await p.goto(url('/userdatabase/ForgotPassword'));
    await p.getByLabel('Email').fill('ada@analytical-engines.com');
    const t0 = Date.now();
    await p.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect.poll(() => p.getByText('An email has been sent').isVisible()).toBe(true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(posts).toEqual([]);
  });

  it('the privacy page states that uploads are encrypted and auto-deleted unless saved', async () => {
    const p = await freshPage();
    await p.goto(url('/privacy'));
    await expect.poll(() => p.locator('h1').textContent()).toBe('Privacy Policy');
    const text = await p.locator('main').textContent();
    expect(text).toContain('Uploads are encrypted.');
    expect(text).toContain('Uploads are deleted automatically unless you save them.');
    for (const path of ['/docs', '/blog', '/support', '/terms-of-service', '/terms', '/privacy-policy']) {
      await p.goto(url(path));
      expect((await p.locator('main').textContent())?.length).toBeGreaterThan(800);
      expect(await p.locator('main').textContent()).not.toMatch(/lorem ipsum/i);
    }
  });
});
