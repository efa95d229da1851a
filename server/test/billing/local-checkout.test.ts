import { BILLING_MESSAGES, TOKEN_PURCHASE_OPTIONS } from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonth } from '../../src/billing/local-billing.ts';
import { buyTokensLocally, call, ledgerRows, subscriptionInfo } from '../support/billing.ts';
import { signedInUser, writeTestPlans } from '../support/compute.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// The built-in test-mode checkout (no Stripe keys): the whole purchase flow on a fresh install.
let t: TestApp;
const WELCOME = 2;

beforeAll(async () => {
  t = await createTestApp({}, { startQueue: false });
});
afterAll(async () => t.close());

const checkoutCount = async () =>
  Number(
    (
      await t.ctx.db
        .selectFrom('checkout_sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst()
    )?.n ?? 0,
  );

describe('GET /api/plans', () => {
  it('returns every plan keyed by id with every field of spec 000 §3', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/plans' });
    expect(res.statusCode).toBe(200);
    const plans = res.json();
    expect(Object.keys(plans)).toEqual(expect.arrayContaining(['token', 'single']));
    for (const plan of Object.values(plans) as Record<string, unknown>[]) {
      expect(Object.keys(plan).sort()).toEqual(
        [
          'billing_cycle',
          'compute_hours_per_month',
          'description',
          'features',
          'name',
          'price_monthly',
          'stripe_price_id',
          'token_cost',
        ].sort(),
      );
      expect(Object.keys(plan.features as object).sort()).toEqual(
        ['concurrent_simulations', 'max_file_size_mb', 'priority_queue', 'support_level'].sort(),
      );
    }
    // The landing page's plan: $5 a month, monthly, standard queue, email support.
    expect(plans.single).toMatchObject({
      price_monthly: 5,
      billing_cycle: 'monthly',
      features: { priority_queue: false, support_level: 'email' },
    });
    // Without Stripe, monthly plans are sold by the built-in checkout under a local price id.
    expect(plans.single.stripe_price_id).toBe('local_price_single');
    expect(plans.token.billing_cycle).not.toBe('monthly');
  });

  it('lists a plan an operator adds to the plans file, without code changes', async () => {
    const dir = t.dataDir;
    const other = await createTestApp({ PLANS_FILE: writeTestPlans(dir) }, { startQueue: false });
    try {
      const plans = (await other.app.inject({ method: 'GET', url: '/api/plans' })).json();
      expect(plans.pro).toMatchObject({ name: 'Pro', price_monthly: 50, stripe_price_id: 'local_price_pro' });
      expect(plans.pro.features.priority_queue).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('GET /api/user/subscription-info', () => {
  it('needs an account', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user/subscription-info' });
    expect(res.statusCode).toBe(401);
  });

  it('reports a new account on the token plan with its welcome grant, from the ledger', async () => {
    const u = await signedInUser(t);
    const info = await subscriptionInfo(t.app, u.cookie);
    expect(info).toEqual({
      plan: 'token',
      plan_name: 'Pay As You Go',
      status: 'active',
      current_period_end: null,
      cancel_at_period_end: false,
      tokens_available: WELCOME,
      tokens_used: 0,
      tokens_purchased: WELCOME,
      tokens_remaining: WELCOME,
      compute_hours_used: 0,
      compute_hours_limit: 0,
      hours_used: 0,
      hours_limit: 0,
      hours_remaining: 0,
      last_compute_time: null,
      payment_provider: 'local',
    });
  });
});

describe('subscription-info cache', () => {
  const grant = (userId: string, id: string) => ({
    user_id: userId,
    entry_type: 'grant' as const,
    tokens: 3,
    hours: 0,
    compute_seconds: null,
    job_id: null,
    plan_id: null,
    source: 'test',
    source_id: id,
    description: 'test grant',
  });

  it("reuses a read until the user's usage changes, and shows the change on the next read", async () => {
    const u = await signedInUser(t);
    await new Promise((r) => setTimeout(r, 2_100)); // the welcome grant's write settles
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME);
    // A row written behind the ledger's back is not seen: the read was cached.
    await t.ctx.db
      .insertInto('usage_ledger')
      .values({ id: crypto.randomUUID(), created_at: new Date().toISOString(), ...grant(u.userId, 'behind') })
      .execute();
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME);
    // Any write through the ledger (charges, grants, purchases) drops the cached read at once.
    await t.ctx.compute.ledger.append(grant(u.userId, 'through'));
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME + 6);
  });
});

describe('POST /api/purchase-tokens through the built-in checkout', () => {
  it('refuses every quantity outside the list with the same message, and records nothing', async () => {
    const u = await signedInUser(t);
    const before = await checkoutCount();
    for (const quantity of [0, 1, 3, 11, 99, 501, 1000, -10, 10.5, '10', null, undefined]) {
      const res = await call(
        t.app,
        u.cookie,
        'POST',
        '/api/purchase-tokens',
        quantity === undefined ? {} : { quantity },
      );
      expect(res.statusCode, String(quantity)).toBe(400);
      expect(res.json().message).toBe(BILLING_MESSAGES.tokenQuantityInvalid);
    }
    expect(BILLING_MESSAGES.tokenQuantityInvalid).toBe(
      'Token quantity must be one of 5, 10, 25, 50, 75, 100, 150, 200, 300, 500',
    );
    expect(await checkoutCount()).toBe(before);
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME);
  });

  it('accepts each listed quantity at one dollar per token', async () => {
    const u = await signedInUser(t);
    for (const quantity of TOKEN_PURCHASE_OPTIONS) {
      const res = await call(t.app, u.cookie, 'POST', '/api/purchase-tokens', { quantity });
      expect(res.statusCode).toBe(200);
      const session = (
        await call(t.app, u.cookie, 'GET', `/api/checkout/local/${res.json().session_id}`)
      ).json();
      expect(session).toMatchObject({
        kind: 'tokens',
        quantity,
        amount_cents: quantity * 100,
        status: 'open',
      });
    }
  });

  it('credits the tokens only when the checkout completes, once, however often it is completed', async () => {
    const u = await signedInUser(t);
    const created = await call(t.app, u.cookie, 'POST', '/api/purchase-tokens', { quantity: 10 });
    expect(created.statusCode).toBe(200);
    const { checkout_url, session_id } = created.json();
    expect(checkout_url).toBe(`${t.ctx.config.publicOrigin}/#/checkout/${session_id}`);
    // Creating the checkout (and any redirect) grants nothing.
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME);

    const [a, b] = await Promise.all([
      call(t.app, u.cookie, 'POST', `/api/checkout/local/${session_id}/complete`),
      call(t.app, u.cookie, 'POST', `/api/checkout/local/${session_id}/complete`),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().status).toBe('completed');
    const again = await call(t.app, u.cookie, 'POST', `/api/checkout/local/${session_id}/complete`);
    expect(again.statusCode).toBe(200);

    const info = await subscriptionInfo(t.app, u.cookie);
    expect(info.tokens_available).toBe(WELCOME + 10);
    expect(info.tokens_purchased).toBe(WELCOME + 10);
    const purchases = (await ledgerRows(t.ctx, u.userId)).filter((r) => r.entry_type === 'purchase');
    expect(purchases).toHaveLength(1);
    expect(purchases[0]).toMatchObject({ tokens: 10, source: 'checkout', source_id: session_id });
    // A completed checkout cannot be cancelled afterwards.
    const cancel = await call(t.app, u.cookie, 'POST', `/api/checkout/local/${session_id}/cancel`);
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().message).toBe(BILLING_MESSAGES.checkoutClosed);
  });

  it('grants nothing for a cancelled checkout, which cannot be completed later', async () => {
    const u = await signedInUser(t);
    const { session_id } = (
      await call(t.app, u.cookie, 'POST', '/api/purchase-tokens', { quantity: 25 })
    ).json();
    const cancelled = await call(t.app, u.cookie, 'POST', `/api/checkout/local/${session_id}/cancel`);
    expect(cancelled.json().status).toBe('cancelled');
    const complete = await call(t.app, u.cookie, 'POST', `/api/checkout/local/${session_id}/complete`);
    expect(complete.statusCode).toBe(409);
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME);
  });

  it('expires an unpaid checkout after its time', async () => {
    const u = await signedInUser(t);
    const { session_id } = (
      await call(t.app, u.cookie, 'POST', '/api/purchase-tokens', { quantity: 5 })
    ).json();
    await t.ctx.db
      .updateTable('checkout_sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', session_id)
      .execute();
    const res = await call(t.app, u.cookie, 'POST', `/api/checkout/local/${session_id}/complete`);
    expect(res.statusCode).toBe(410);
    expect(res.json().message).toBe(BILLING_MESSAGES.checkoutExpired);
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME);
  });

  it("answers 404 for someone else's checkout and 401 without an account", async () => {
    const owner = await signedInUser(t);
    const stranger = await signedInUser(t);
    const { session_id } = (
      await call(t.app, owner.cookie, 'POST', '/api/purchase-tokens', { quantity: 50 })
    ).json();
    for (const [method, url] of [
      ['GET', `/api/checkout/local/${session_id}`],
      ['POST', `/api/checkout/local/${session_id}/complete`],
      ['POST', `/api/checkout/local/${session_id}/cancel`],
    ] as const) {
      expect((await call(t.app, stranger.cookie, method, url)).statusCode, url).toBe(404);
      expect((await call(t.app, null, method, url)).statusCode, url).toBe(401);
    }
    expect((await call(t.app, null, 'POST', '/api/purchase-tokens', { quantity: 10 })).statusCode).toBe(401);
    expect((await subscriptionInfo(t.app, stranger.cookie)).tokens_available).toBe(WELCOME);
    expect((await subscriptionInfo(t.app, owner.cookie)).tokens_available).toBe(WELCOME);
  });
});

describe('POST /api/create-checkout-session through the built-in checkout', () => {
  it("answers 'Missing priceId' without a price, and refuses an unknown one", async () => {
    const u = await signedInUser(t);
    for (const body of [{}, { priceId: '' }, { priceId: '   ' }, { priceId: null }]) {
      const res = await call(t.app, u.cookie, 'POST', '/api/create-checkout-session', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Missing priceId');
    }
    const unknown = await call(t.app, u.cookie, 'POST', '/api/create-checkout-session', {
      priceId: 'price_nope',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(BILLING_MESSAGES.unknownPrice);
    // The token plan is not a monthly plan and cannot be subscribed to.
    const token = await call(t.app, u.cookie, 'POST', '/api/create-checkout-session', {
      priceId: 'local_price_token',
    });
    expect(token.statusCode).toBe(400);
  });

  it('subscribes to the $5 plan: plan, status, period end and the monthly hours', async () => {
    const u = await signedInUser(t);
    const res = await call(t.app, u.cookie, 'POST', '/api/create-checkout-session', {
      priceId: 'local_price_single',
    });
    expect(res.statusCode).toBe(200);
    const { checkoutUrl, sessionId } = res.json();
    expect(checkoutUrl).toContain(`/#/checkout/${sessionId}`);
    const session = (await call(t.app, u.cookie, 'GET', `/api/checkout/local/${sessionId}`)).json();
    expect(session).toMatchObject({
      kind: 'subscription',
      plan_id: 'single',
      amount_cents: 500,
      interval: 'month',
    });
    expect((await subscriptionInfo(t.app, u.cookie)).plan).toBe('token');

    const started = Date.now();
    expect(
      (await call(t.app, u.cookie, 'POST', `/api/checkout/local/${sessionId}/complete`)).statusCode,
    ).toBe(200);
    const info = await subscriptionInfo(t.app, u.cookie);
    expect(info).toMatchObject({
      plan: 'single',
      plan_name: 'Single',
      status: 'active',
      compute_hours_limit: 10,
      hours_limit: 10,
      compute_hours_used: 0,
      hours_remaining: 10,
      tokens_available: WELCOME,
    });
    const end = Date.parse(info.current_period_end);
    expect(end - started).toBeGreaterThan(27 * 86400_000);
    expect(end - started).toBeLessThan(32 * 86400_000);
    // The account's plan (what /api/auth/check reports) follows.
    const check = (await call(t.app, u.cookie, 'GET', '/api/auth/check')).json();
    expect(check.user.plan).toBe('single');
    // The paid period is in the ledger.
    const periods = (await ledgerRows(t.ctx, u.userId)).filter(
      (r) => r.entry_type === 'subscription_renewal',
    );
    expect(periods).toHaveLength(1);

    const again = await call(t.app, u.cookie, 'POST', '/api/create-checkout-session', {
      priceId: 'local_price_single',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(BILLING_MESSAGES.alreadySubscribed);
  });

  it('renews at the end of the period (allowance reset), and ends after a cancellation at period end', async () => {
    const u = await signedInUser(t);
    const { sessionId } = (
      await call(t.app, u.cookie, 'POST', '/api/create-checkout-session', { priceId: 'local_price_single' })
    ).json();
    await call(t.app, u.cookie, 'POST', `/api/checkout/local/${sessionId}/complete`);
    // Used 4 hours this period.
    await t.ctx.compute.ledger.append({
      user_id: u.userId,
      entry_type: 'job_charge',
      tokens: 0,
      hours: 4,
      compute_seconds: 4 * 3600,
      job_id: null,
      plan_id: 'single',
      source: 'test-job',
      source_id: `${u.userId}-1`,
      description: 'test charge',
    });
    expect((await subscriptionInfo(t.app, u.cookie)).compute_hours_used).toBe(4);

    // The period ends: move it into the past (as if a month went by).
    const past = new Date(Date.now() - 60_000).toISOString();
    const start = new Date(Date.now() - 31 * 86400_000).toISOString();
    await t.ctx.db
      .updateTable('subscriptions')
      .set({ current_period_start: start, current_period_end: past })
      .where('user_id', '=', u.userId)
      .execute();
    await t.ctx.db
      .updateTable('user_plans')
      .set({ period_start: start, current_period_end: past })
      .where('user_id', '=', u.userId)
      .execute();
    await t.ctx.db
      .updateTable('usage_ledger')
      .set({ created_at: start })
      .where('user_id', '=', u.userId)
      .execute();

    const renewed = await subscriptionInfo(t.app, u.cookie);
    expect(renewed.plan).toBe('single');
    expect(renewed.compute_hours_used).toBe(0); // the allowance starts again
    expect(renewed.current_period_end).toBe(addMonth(past));
    expect(
      (await ledgerRows(t.ctx, u.userId)).filter((r) => r.entry_type === 'subscription_renewal'),
    ).toHaveLength(2);

    // Manage Billing → cancel at period end: still on the plan until the period is over.
    const portal = await call(t.app, u.cookie, 'POST', '/api/billing/portal');
    expect(portal.json().url).toBe(`${t.ctx.config.publicOrigin}/#/billing/manage`);
    const cancelled = await call(t.app, u.cookie, 'POST', '/api/billing/local-portal/cancel');
    expect(cancelled.json()).toMatchObject({ plan: 'single', cancel_at_period_end: true });
    expect((await subscriptionInfo(t.app, u.cookie)).cancel_at_period_end).toBe(true);
    await t.ctx.db
      .updateTable('subscriptions')
      .set({ current_period_end: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', u.userId)
      .execute();
    const ended = await subscriptionInfo(t.app, u.cookie);
    expect(ended).toMatchObject({ plan: 'token', status: 'canceled', current_period_end: null });
    expect((await call(t.app, u.cookie, 'GET', '/api/auth/check')).json().user.plan).toBe('token');
  });
});

describe('ledger invariants', () => {
  it('keeps tokens_available = purchased − used, never negative, even when a charge overdraws', async () => {
    const u = await signedInUser(t);
    await buyTokensLocally(t.app, u.cookie, 5);
    const charge = (id: string, tokens: number) =>
      t.ctx.compute.ledger.append({
        user_id: u.userId,
        entry_type: 'job_charge',
        tokens: -tokens,
        hours: 0,
        compute_seconds: tokens * 3600,
        job_id: null,
        plan_id: 'token',
        source: 'test-job',
        source_id: id,
        description: 'test charge',
      });
    await charge(`${u.userId}-a`, 3.25);
    let info = await subscriptionInfo(t.app, u.cookie);
    expect(info.tokens_purchased).toBe(7);
    expect(info.tokens_used).toBe(3.25);
    expect(info.tokens_available).toBe(3.75);
    expect(info.tokens_available).toBe(info.tokens_purchased - info.tokens_used);

    await charge(`${u.userId}-b`, 10); // a job that ran far past its estimate
    info = await subscriptionInfo(t.app, u.cookie);
    expect(info.tokens_available).toBe(0);
    expect(info.tokens_remaining).toBe(0);
    expect(info.tokens_used).toBe(info.tokens_purchased);
    // The debt is not forgotten: a later purchase first covers it (net balance = 7 − 13.25 + 10).
    await buyTokensLocally(t.app, u.cookie, 10);
    info = await subscriptionInfo(t.app, u.cookie);
    expect(info.tokens_available).toBe(3.75);
    expect(info.tokens_available).toBe(info.tokens_purchased - info.tokens_used);
  });
});
