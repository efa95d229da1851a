import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerApiUser } from '../support/api-user.ts';
import { submitPlateCapacitor } from '../support/plate-job.ts';
import { seedUsage } from '../support/seed-usage.ts';
import { serverAndBrowser } from '../support/stand.ts';

// Spec 000 §2 dashboard, usage panel, billing page and debug panel in Chromium against the real server,
// with the built-in test-mode checkout (no Stripe keys): the purchase flow of a fresh install.
const contexts: BrowserContext[] = [];
const WELCOME = 2;
/** Set E2E_SCREENSHOTS=<dir> to keep screenshots of the screens for a look by eye. */
const SHOTS = process.env.E2E_SCREENSHOTS;

const stand = serverAndBrowser();
beforeAll(async () => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close();
});

const url = (hashPath: string) => `${stand.server.origin}/#${hashPath}`;
const hashPath = (p: Page) => decodeURIComponent(new URL(p.url()).hash.slice(1));
const shot = async (p: Page, name: string) => {
  if (SHOTS) await p.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};

interface User {
  id: string;
  cookie: string;
  page: Page;
}

/** A new account (registered through the API) signed in in a fresh browser context. */
async function newUser(): Promise<User> {
  const cookie = await registerApiUser(stand.server.origin);
  const me = await (await fetch(`${stand.server.origin}/api/auth/check`, { headers: { cookie } })).json();
  const context = await stand.browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: stand.server.origin }]);
  return { id: me.user.id, cookie, page: await context.newPage() };
}

const tile = (p: Page, label: string) => p.getByTestId(`tile-${label}`).locator('.dash-tile-value');

async function openDashboard(p: Page) {
  await p.goto(url('/dashboard'));
  await p.getByText('Computational Usage').waitFor();
  await p.getByTestId('usage-percent').waitFor();
}

/** Billing → checkout page → "Pay (test)" → back on Billing with the purchase applied. */
async function payOnCheckoutPage(p: Page, total: string) {
  await expect.poll(() => hashPath(p)).toMatch(/^\/checkout\/chk_/);
  await p.getByText('TEST MODE').waitFor();
  expect(await p.getByTestId('checkout-total').textContent()).toBe(total);
  await shot(p, `checkout-${total.replace(/\W/g, '')}`);
  await p.getByRole('button', { name: `Pay ${total} (test)` }).click();
  await expect.poll(() => hashPath(p)).toMatch(/^\/billing\?checkout=success/);
  await p.getByText('Payment complete.').waitFor();
}

async function runTinyJob(cookie: string): Promise<string> {
  const res = await submitPlateCapacitor(stand.server.origin, cookie, [1, 1, 1], [1, 1, 1], 1);
  expect(res.status).toBe(200);
  const { job_id } = (await res.json()) as { job_id: string };
  let status = 'queued';
  while (status === 'queued' || status === 'running') {
    await new Promise((r) => setTimeout(r, 200));
    status = (
      await (await fetch(`${stand.server.origin}/api/fea/status/${job_id}`, { headers: { cookie } })).json()
    ).status;
  }
  expect(status).toBe('completed');
  return job_id;
}

describe('token plan', () => {
  it('buys 10 tokens through the built-in checkout, then runs a job and sees the usage move', async () => {
    const { page: p, cookie } = await newUser();
    await openDashboard(p);
    expect(await tile(p, 'Available').textContent()).toBe(`${WELCOME} tokens`);
    expect(await p.getByTestId('overview-plan').textContent()).toBe('Token');
    expect(await p.getByText('No recent simulations').isVisible()).toBe(true);
    await shot(p, 'dashboard-new-user');

    // Billing → Buy Tokens: 10 is preselected.
    await p.locator('.site-topbar').getByRole('link', { name: 'Billing', exact: true }).click();
    await p.getByRole('heading', { name: 'Billing & Pricing' }).waitFor();
    await p.getByRole('tab', { name: 'Buy Tokens' }).click();
    const select = p.getByLabel('Quantity');
    expect(await select.inputValue()).toBe('10');
    expect(await select.locator('option:checked').textContent()).toBe('10 Tokens - $10');
    await shot(p, 'billing-tokens');
    await p.getByRole('button', { name: 'Purchase Tokens' }).click();
    await payOnCheckoutPage(p, '$10.00');
    await expect.poll(() => p.getByTestId('status-Available Tokens').textContent()).toBe(`${WELCOME + 10}`);

    await openDashboard(p);
    expect(await tile(p, 'Available').textContent()).toBe(`${WELCOME + 10} tokens`);
    expect(await tile(p, 'Used This Period').textContent()).toBe('0 tokens');
    expect(await p.getByText(/^Last computation/).count()).toBe(0);

    // A job runs (through the API, as the simulator would submit it); Refresh Usage shows what it cost.
    const jobId = await runTinyJob(cookie);
    await p.getByRole('button', { name: 'Refresh Usage', exact: true }).click();
    await expect.poll(() => tile(p, 'Used This Period').textContent()).not.toBe('0 tokens');
    const used = Number((await tile(p, 'Used This Period').textContent())?.replace(' tokens', ''));
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThan(0.01); // a second or two of compute at one token per hour
    await p.getByText(/^Last computation/).waitFor();

    // Recent Activity lists the job; the debug panel lists it and "Test This Job" fills the input.
    await p.reload();
    const row = p.getByTestId('recent-job').first();
    await row.waitFor();
    expect(await row.textContent()).toContain('Electromagnetic analysis');
    expect(await row.textContent()).toContain('completed');
    await p.getByRole('button', { name: 'List Recent Jobs' }).click();
    const task = p.getByTestId('debug-task').first();
    await task.waitFor();
    expect(await task.textContent()).toContain(jobId);
    expect(await task.textContent()).toContain('STOPPED');
    await task.getByRole('button', { name: 'Test This Job' }).click();
    expect(await p.getByLabel('Test Specific Job').inputValue()).toBe(jobId);
    await p.getByRole('button', { name: 'Test Job', exact: true }).click();
    const result = p.getByTestId('debug-result');
    await result.waitFor();
    await result.getByText('Raw data').click();
    expect(await result.locator('pre').textContent()).toContain(jobId);
    await p.getByRole('button', { name: 'Debug Database' }).click();
    await expect.poll(() => result.textContent()).toContain('Table exists');
    await shot(p, 'dashboard-after-job');

    // The empty test input is refused with the spec's alert.
    await p.getByLabel('Test Specific Job').fill('   ');
    let alertText = '';
    p.once('dialog', (d) => {
      alertText = d.message();
      void d.dismiss();
    });
    await p.getByRole('button', { name: 'Test Job', exact: true }).click();
    await expect.poll(() => alertText).toBe('Please enter a task ARN or task ID');

    // Recent Activity links back into the simulator, which opens the job's results.
    await row.getByRole('link', { name: 'Open in simulator' }).click();
    await expect.poll(() => hashPath(p)).toBe(`/environment?job=${jobId}`);
    await expect
      .poll(() => p.getByTestId('status-chip').textContent(), { timeout: 30_000 })
      .toBe('FEA: completed');
  });

  it('warns at 75 % (yellow) and offers Buy More Tokens below 5 tokens', async () => {
    const { page: p, id } = await newUser();
    await seedUsage(stand.server.dataDir, id, { tokens: 1.55 }); // 77.5 % of the 2 granted tokens
    await openDashboard(p);
    expect(await p.getByTestId('usage-percent').textContent()).toBe('77.5%');
    expect(await p.getByTestId('usage-percent').getAttribute('class')).toContain('dash-level-approaching');
    await p.getByText('Approaching Limit').waitFor();
    expect(await p.getByText(/purchase more tokens/i).isVisible()).toBe(true);
    expect(
      await p.locator('.dash-quick-actions').getByRole('button', { name: 'Buy More Tokens' }).isVisible(),
    ).toBe(true);
    await shot(p, 'dashboard-token-approaching');
  });
});

describe('monthly plan', () => {
  it('subscribes to the $5 plan, shows the plan badge and period end, and warns at 75 % and 90 %', async () => {
    const { page: p, id } = await newUser();
    await p.goto(url('/billing'));
    const single = p.getByTestId('plan-single');
    await single.waitFor();
    expect(await single.textContent()).toContain('$5');
    expect(await single.textContent()).toContain('Standard compute queue');
    await shot(p, 'billing-plans');
    await single.getByRole('button', { name: 'Subscribe Now' }).click();
    await payOnCheckoutPage(p, '$5.00');
    await expect.poll(() => p.getByTestId('status-Plan').textContent()).toBe('Single');
    expect(await p.getByTestId('status-Status').textContent()).toBe('Active');
    expect(await single.getByText('Current plan').isVisible()).toBe(true);
    await shot(p, 'billing-subscribed');

    await openDashboard(p);
    expect(await p.getByTestId('overview-plan').textContent()).toBe('Single');
    const status = p.getByTestId('overview-status');
    expect(await status.textContent()).toBe('Active');
    expect(await status.getAttribute('class')).toContain('dash-badge-ok');
    const periodEnd = await p.locator('.dash-period-end').textContent();
    expect(periodEnd).toMatch(/^Billing Period Ends: /);
    const end = new Date(Date.now() + 30 * 86400_000);
    expect(periodEnd).toContain(String(end.getFullYear()));
    expect(await p.getByText('Compute Hours Used').isVisible()).toBe(true);
    expect(await p.getByTestId('usage-counts').textContent()).toBe('0 min / 10 hours');
    expect(await p.getByRole('button', { name: 'Buy Extra Tokens' }).isVisible()).toBe(true);

    await seedUsage(stand.server.dataDir, id, { hours: 7.6, planId: 'single' });
    await p.getByRole('button', { name: 'Refresh Usage', exact: true }).click();
    await expect.poll(() => p.getByTestId('usage-percent').textContent()).toBe('76.0%');
    expect(await p.getByTestId('usage-percent').getAttribute('class')).toContain('dash-level-approaching');
    await p.getByText('Approaching Limit').waitFor();
    expect(
      await p.getByText(/consider upgrading your plan or purchasing additional tokens/i).isVisible(),
    ).toBe(true);
    expect(await p.locator('.dash-quick-actions').getByRole('button', { name: 'Upgrade Plan' }).count()).toBe(
      0,
    );
    await shot(p, 'dashboard-subscriber-76');

    await seedUsage(stand.server.dataDir, id, { hours: 1.6, planId: 'single' });
    await p.getByRole('button', { name: 'Refresh usage', exact: true }).click(); // the icon button
    await expect.poll(() => p.getByTestId('usage-percent').textContent()).toBe('92.0%');
    expect(await p.getByTestId('usage-percent').getAttribute('class')).toContain('dash-level-limit');
    await p.getByText('Usage Limit Reached').waitFor();
    expect(await p.getByText('Approaching Limit').count()).toBe(0);
    expect(
      await p.locator('.dash-quick-actions').getByRole('button', { name: 'Upgrade Plan' }).isVisible(),
    ).toBe(true);
    expect(await p.getByTestId('usage-counts').textContent()).toBe('9.2 hours / 10 hours');
    await shot(p, 'dashboard-subscriber-92');

    // Manage Billing opens the built-in portal (test mode): cancel at the end of the period.
    await p.goto(url('/billing'));
    await p.getByRole('button', { name: 'Manage Billing' }).click();
    await expect.poll(() => hashPath(p)).toBe('/billing/manage');
    await p.getByRole('button', { name: 'Cancel subscription' }).click();
    await p.getByText(/stays active until the end of the paid period/).waitFor();
    await shot(p, 'manage-billing-cancelled');

    if (SHOTS) {
      await p.setViewportSize({ width: 390, height: 844 });
      await openDashboard(p);
      await shot(p, 'dashboard-narrow');
      await p.goto(url('/billing'));
      await p.getByTestId('plan-single').waitFor();
      await shot(p, 'billing-narrow');
      await p.setViewportSize({ width: 1280, height: 900 });
    }

    // Logout (top bar) signs out and goes home.
    await p.goto(url('/dashboard'));
    await p.getByRole('button', { name: 'Logout', exact: true }).click();
    await expect.poll(() => hashPath(p)).toBe('/');
    await p.getByRole('button', { name: 'Sign Up' }).waitFor();
    await p.goto(url('/dashboard'));
    await expect.poll(() => hashPath(p)).toBe('/userdatabase/Login');
  });
});
