import { BILLING_MESSAGES } from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, ledgerRows, subscriptionInfo } from '../support/billing.ts';
import { signedInUser, writeTestPlans } from '../support/compute.ts';
import { FakeStripe } from '../support/fake-stripe.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

// Stripe mode: the real `stripe` SDK against a stand-in for Stripe's API, and webhooks signed offline
// with the SDK's own helper. Grants happen only through the verified webhook.
let t: TestApp;
let stripe: FakeStripe;
const PRICE = 'price_single_test';
const PRO_PRICE = 'price_studio_test';
const WELCOME = 2;

beforeAll(async () => {
  stripe = new FakeStripe();
  const base = await stripe.start();
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const plans = writeTestPlans(mkdtempSync(join(tmpdir(), 'fieldline-plans-')), {
    single: {
      name: 'Single',
      description: 'monthly',
      price_monthly: 5,
      billing_cycle: 'monthly',
      compute_hours_per_month: 10,
      token_cost: 1,
      stripe_price_id: PRICE,
      features: {
        support_level: 'email',
        max_file_size_mb: 100,
        priority_queue: false,
        concurrent_simulations: 3,
      },
    },
    studio: {
      name: 'Studio',
      description: 'priority',
      price_monthly: 50,
      billing_cycle: 'monthly',
      compute_hours_per_month: 100,
      token_cost: 0.5,
      stripe_price_id: PRO_PRICE,
      features: {
        support_level: 'priority',
        max_file_size_mb: 1000,
        priority_queue: true,
        concurrent_simulations: 8,
      },
    },
  });
  t = await createTestApp(
    {
      STRIPE_SECRET_KEY: FakeStripe.secretKey,
      STRIPE_WEBHOOK_SECRET: FakeStripe.webhookSecret,
      STRIPE_API_BASE: base,
      PLANS_FILE: plans,
    },
    { startQueue: false },
  );
});
afterAll(async () => {
  await t?.close();
  await stripe?.stop();
});

function deliver(payload: string, signature: string | null = FakeStripe.sign(payload)) {
  return t.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    payload,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature === null ? {} : { 'stripe-signature': signature }),
    },
  });
}

/** A checkout.session object as Stripe sends it in an event. */
function sessionObject(
  id: string,
  over: {
    mode: 'payment' | 'subscription';
    payment_status?: string;
    subscription?: string;
    customer?: string;
  },
) {
  return {
    id,
    object: 'checkout.session',
    mode: over.mode,
    payment_status: over.payment_status ?? 'paid',
    status: 'complete',
    customer: over.customer ?? null,
    subscription: over.subscription ?? null,
    metadata: {},
  };
}

async function startTokenCheckout(cookie: string, quantity = 10) {
  const res = await call(t.app, cookie, 'POST', '/api/purchase-tokens', { quantity });
  expect(res.statusCode).toBe(200);
  return res.json() as { checkout_url: string; session_id: string };
}

describe('checkout sessions on Stripe', () => {
  it('creates a payment-mode session for tokens with an idempotency key from our checkout row', async () => {
    const u = await signedInUser(t);
    const { checkout_url, session_id } = await startTokenCheckout(u.cookie, 25);
    expect(session_id).toMatch(/^cs_test_/);
    expect(checkout_url).toBe(`https://checkout.stripe.com/c/pay/${session_id}`);
    const create = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1);
    expect(create?.form.get('mode')).toBe('payment');
    expect(create?.form.get('line_items[0][quantity]')).toBe('25');
    expect(create?.form.get('line_items[0][price_data][unit_amount]')).toBe('100');
    expect(create?.form.get('line_items[0][price_data][currency]')).toBe('usd');
    expect(create?.form.get('client_reference_id')).toBe(u.userId);
    const row = await t.ctx.db
      .selectFrom('checkout_sessions')
      .selectAll()
      .where('external_id', '=', session_id)
      .executeTakeFirstOrThrow();
    expect(create?.idempotencyKey).toBe(`checkout:${row.id}`);
    expect(create?.form.get('metadata[checkout_id]')).toBe(row.id);
    // The customer was created once, with its own idempotency key.
    const customers = stripe.requests.filter((r) => r.path === '/v1/customers');
    expect(customers.at(-1)?.idempotencyKey).toBe(`customer:${u.userId}`);
    await startTokenCheckout(u.cookie, 5);
    expect(stripe.requests.filter((r) => r.path === '/v1/customers')).toHaveLength(customers.length);
    // Nothing is granted until Stripe says the payment succeeded.
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME);
  });

  it('creates a subscription-mode session for the plan price; plans list the Stripe price', async () => {
    const u = await signedInUser(t);
    const plans = (await t.app.inject({ method: 'GET', url: '/api/plans' })).json();
    expect(plans.single.stripe_price_id).toBe(PRICE);
    expect(plans.pro.stripe_price_id).toBeNull(); // not configured in Stripe: cannot be sold
    const res = await call(t.app, u.cookie, 'POST', '/api/create-checkout-session', { priceId: PRICE });
    expect(res.statusCode).toBe(200);
    expect(res.json().checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const create = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1);
    expect(create?.form.get('mode')).toBe('subscription');
    expect(create?.form.get('line_items[0][price]')).toBe(PRICE);
    expect(create?.form.get('subscription_data[metadata][user_id]')).toBe(u.userId);
    expect(create?.idempotencyKey).toMatch(/^checkout:chk_/);
    const local = await call(t.app, u.cookie, 'POST', '/api/create-checkout-session', {
      priceId: 'local_price_single',
    });
    expect(local.statusCode).toBe(400);
  });

  it("answers 'Failed to create checkout session' when Stripe fails, and records the checkout as failed", async () => {
    const u = await signedInUser(t);
    await startTokenCheckout(u.cookie); // creates the customer first
    stripe.failNext = 3; // the SDK retries twice
    const res = await call(t.app, u.cookie, 'POST', '/api/purchase-tokens', { quantity: 10 });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe(BILLING_MESSAGES.checkoutFailed);
    const failed = await t.ctx.db
      .selectFrom('checkout_sessions')
      .selectAll()
      .where('user_id', '=', u.userId)
      .where('status', '=', 'failed')
      .execute();
    expect(failed).toHaveLength(1);
    // The retries reused one idempotency key.
    const keys = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').slice(-3);
    expect(new Set(keys.map((k) => k.idempotencyKey)).size).toBe(1);
  });

  it('refuses the built-in checkout routes when Stripe runs payments', async () => {
    const u = await signedInUser(t);
    const { session_id } = await startTokenCheckout(u.cookie);
    const res = await call(t.app, u.cookie, 'POST', `/api/checkout/local/${session_id}/complete`);
    expect(res.statusCode).toBe(404);
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME);
  });
});

describe('POST /api/stripe/webhook: signatures', () => {
  it('rejects a missing, forged, tampered, stale or wrong-secret signature with 400 and changes nothing', async () => {
    const u = await signedInUser(t);
    const { session_id } = await startTokenCheckout(u.cookie);
    const payload = FakeStripe.event(
      'evt_sig_1',
      'checkout.session.completed',
      sessionObject(session_id, { mode: 'payment' }),
    );
    const now = Math.floor(Date.now() / 1000);
    const attempts: [string, string | null][] = [
      [payload, null],
      [payload, 't=123,v1=deadbeef'],
      [payload.replace('"paid"', '"paid" '), FakeStripe.sign(payload)],
      [payload, FakeStripe.sign(payload, { secret: 'whsec_someone_else' })],
      [payload, FakeStripe.sign(payload, { timestamp: now - 301 })],
    ];
    for (const [body, sig] of attempts) {
      const res = await deliver(body, sig);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(BILLING_MESSAGES.webhookSignature);
    }
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME);
    expect(await t.ctx.billing.store.eventProcessed('evt_sig_1')).toBe(false);
    // The genuine delivery then works.
    const ok = await deliver(payload);
    expect(ok.statusCode).toBe(200);
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME + 10);
  });

  it('needs no CSRF headers (Stripe calls server to server) but checks the body byte for byte', async () => {
    const payload = FakeStripe.event('evt_sig_2', 'ping.unknown', {});
    const pretty = JSON.stringify(JSON.parse(payload), null, 2);
    expect((await deliver(pretty, FakeStripe.sign(payload))).statusCode).toBe(400);
    const res = await deliver(payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ received: true, outcome: 'ignored: ping.unknown' });
  });
});

describe('POST /api/stripe/webhook: token purchases', () => {
  it('credits once per session: replays, concurrent duplicates and the async-success event change nothing', async () => {
    const u = await signedInUser(t);
    const { session_id } = await startTokenCheckout(u.cookie, 50);
    const completed = FakeStripe.event(
      'evt_tok_1',
      'checkout.session.completed',
      sessionObject(session_id, { mode: 'payment' }),
    );

    const [a, b] = await Promise.all([deliver(completed), deliver(completed)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME + 50);
    const rows = (await ledgerRows(t.ctx, u.userId)).length;

    const replay = await deliver(completed);
    expect(replay.json()).toMatchObject({ duplicate: true });
    const asyncSucceeded = FakeStripe.event(
      'evt_tok_2',
      'checkout.session.async_payment_succeeded',
      sessionObject(session_id, { mode: 'payment' }),
    );
    expect((await deliver(asyncSucceeded)).statusCode).toBe(200);
    expect((await ledgerRows(t.ctx, u.userId)).length).toBe(rows);
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME + 50);
  });

  it('waits for a delayed payment: completed-but-unpaid grants nothing until async_payment_succeeded', async () => {
    const u = await signedInUser(t);
    const { session_id } = await startTokenCheckout(u.cookie, 100);
    const unpaid = FakeStripe.event(
      'evt_async_1',
      'checkout.session.completed',
      sessionObject(session_id, { mode: 'payment', payment_status: 'unpaid' }),
    );
    expect((await deliver(unpaid)).json().outcome).toBe('awaiting payment (unpaid)');
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME);
    const paid = FakeStripe.event(
      'evt_async_2',
      'checkout.session.async_payment_succeeded',
      sessionObject(session_id, { mode: 'payment' }),
    );
    expect((await deliver(paid)).statusCode).toBe(200);
    expect((await subscriptionInfo(t.app, u.cookie)).tokens_available).toBe(WELCOME + 100);
  });
});

describe('POST /api/stripe/webhook: subscriptions', () => {
  const DAY = 86400_000;
  const periodOf = (offsetDays: number) => ({
    periodStart: new Date(Date.now() + offsetDays * DAY).toISOString(),
    periodEnd: new Date(Date.now() + (offsetDays + 30) * DAY).toISOString(),
  });

  async function subscribe(user: { userId: string; cookie: string }, subId: string) {
    const { sessionId } = (
      await call(t.app, user.cookie, 'POST', '/api/create-checkout-session', { priceId: PRICE })
    ).json();
    const customer = stripe.requests
      .filter((r) => r.path === '/v1/checkout/sessions')
      .at(-1)
      ?.form.get('customer');
    stripe.setSubscription({
      id: subId,
      customer: customer ?? 'cus_x',
      status: 'active',
      priceId: PRICE,
      metadata: { user_id: user.userId, plan_id: 'single' },
      ...periodOf(0),
    });
    const evt = FakeStripe.event(
      `evt_${subId}_completed`,
      'checkout.session.completed',
      sessionObject(sessionId, {
        mode: 'subscription',
        subscription: subId,
        customer: customer ?? undefined,
      }),
    );
    expect((await deliver(evt)).statusCode).toBe(200);
    return customer as string;
  }

  it('subscribes on checkout.session.completed and records the period on invoice.paid', async () => {
    const u = await signedInUser(t);
    await subscribe(u, 'sub_basic');
    const info = await subscriptionInfo(t.app, u.cookie);
    expect(info).toMatchObject({ plan: 'single', status: 'active', compute_hours_limit: 10 });
    const end = stripe.subscriptions.get('sub_basic')?.periodEnd ?? 0;
    expect(info.current_period_end).toBe(new Date(end * 1000).toISOString());

    const invoice = {
      id: 'in_basic_1',
      object: 'invoice',
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_basic' } },
      lines: {
        object: 'list',
        data: [
          {
            period: { start: Math.floor(Date.now() / 1000), end: Math.floor(Date.now() / 1000) + 30 * 86400 },
          },
        ],
      },
    };
    expect((await deliver(FakeStripe.event('evt_inv_1', 'invoice.paid', invoice))).statusCode).toBe(200);
    expect((await deliver(FakeStripe.event('evt_inv_1b', 'invoice.paid', invoice))).statusCode).toBe(200);
    const periods = (await ledgerRows(t.ctx, u.userId)).filter(
      (r) => r.entry_type === 'subscription_renewal',
    );
    expect(periods).toHaveLength(1); // one row per invoice, whatever number of events
    expect(periods[0]).toMatchObject({ source: 'invoice', source_id: 'in_basic_1', plan_id: 'single' });
  });

  it('ends with the state Stripe has now when events arrive out of order', async () => {
    const u = await signedInUser(t);
    const { sessionId } = (
      await call(t.app, u.cookie, 'POST', '/api/create-checkout-session', { priceId: PRICE })
    ).json();
    const customer =
      stripe.requests
        .filter((r) => r.path === '/v1/checkout/sessions')
        .at(-1)
        ?.form.get('customer') ?? '';
    // Stripe has an active subscription; `updated(active)` is delivered before `created(incomplete)`.
    stripe.setSubscription({
      id: 'sub_ooo',
      customer,
      status: 'active',
      priceId: PRICE,
      metadata: { user_id: u.userId, plan_id: 'single' },
      ...periodOf(0),
    });
    const staleCopy = { id: 'sub_ooo', object: 'subscription', status: 'incomplete', customer, metadata: {} };
    const activeCopy = { ...staleCopy, status: 'active' };
    expect(
      (await deliver(FakeStripe.event('evt_ooo_2', 'customer.subscription.updated', activeCopy, 200)))
        .statusCode,
    ).toBe(200);
    expect(
      (await deliver(FakeStripe.event('evt_ooo_1', 'customer.subscription.created', staleCopy, 100)))
        .statusCode,
    ).toBe(200);
    expect((await subscriptionInfo(t.app, u.cookie)).status).toBe('active');
    // The checkout's own completion arrives last of all.
    const done = FakeStripe.event(
      'evt_ooo_3',
      'checkout.session.completed',
      sessionObject(sessionId, { mode: 'subscription', subscription: 'sub_ooo', customer }),
    );
    expect((await deliver(done)).statusCode).toBe(200);
    expect(await subscriptionInfo(t.app, u.cookie)).toMatchObject({ plan: 'single', status: 'active' });

    // A renewal is paid, then a stale `updated(past_due)` from before it is delivered late.
    stripe.setSubscription({
      id: 'sub_ooo',
      customer,
      status: 'active',
      priceId: PRICE,
      metadata: { user_id: u.userId, plan_id: 'single' },
      ...periodOf(30),
    });
    await deliver(FakeStripe.event('evt_ooo_5', 'customer.subscription.updated', activeCopy, 500));
    await deliver(
      FakeStripe.event(
        'evt_ooo_4',
        'customer.subscription.updated',
        { ...staleCopy, status: 'past_due' },
        400,
      ),
    );
    const info = await subscriptionInfo(t.app, u.cookie);
    expect(info.status).toBe('active');
    expect(Date.parse(info.current_period_end)).toBeGreaterThan(Date.now() + 55 * DAY);
  });

  it('keeps the plan while a payment is retried (past_due), and returns to tokens when it is deleted', async () => {
    const u = await signedInUser(t);
    const customer = await subscribe(u, 'sub_dunning');
    const sub = stripe.subscriptions.get('sub_dunning');
    if (!sub) throw new Error('no fake subscription');
    sub.status = 'past_due';
    const failed = {
      id: 'in_dunning_1',
      object: 'invoice',
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_dunning' } },
    };
    expect((await deliver(FakeStripe.event('evt_dun_1', 'invoice.payment_failed', failed))).statusCode).toBe(
      200,
    );
    expect(await subscriptionInfo(t.app, u.cookie)).toMatchObject({ plan: 'single', status: 'past_due' });

    sub.status = 'canceled';
    const deleted = { id: 'sub_dunning', object: 'subscription', status: 'canceled', customer, metadata: {} };
    expect(
      (await deliver(FakeStripe.event('evt_dun_2', 'customer.subscription.deleted', deleted))).statusCode,
    ).toBe(200);
    const info = await subscriptionInfo(t.app, u.cookie);
    expect(info).toMatchObject({
      plan: 'token',
      status: 'canceled',
      current_period_end: null,
      compute_hours_limit: 0,
    });
    expect((await call(t.app, u.cookie, 'GET', '/api/auth/check')).json().user.plan).toBe('token');
  });

  it('follows a plan change made in the Customer Portal (the price decides the plan)', async () => {
    const u = await signedInUser(t);
    await subscribe(u, 'sub_upgrade');
    const sub = stripe.subscriptions.get('sub_upgrade');
    if (!sub) throw new Error('no fake subscription');
    sub.priceId = PRO_PRICE; // our metadata still says 'single'
    const copy = {
      id: 'sub_upgrade',
      object: 'subscription',
      status: 'active',
      customer: sub.customer,
      metadata: {},
    };
    expect(
      (await deliver(FakeStripe.event('evt_up_1', 'customer.subscription.updated', copy))).statusCode,
    ).toBe(200);
    expect(await subscriptionInfo(t.app, u.cookie)).toMatchObject({
      plan: 'studio',
      compute_hours_limit: 100,
    });
  });

  it('refuses a second subscription and sends Manage Billing to the Customer Portal', async () => {
    const u = await signedInUser(t);
    const customer = await subscribe(u, 'sub_portal');
    const again = await call(t.app, u.cookie, 'POST', '/api/create-checkout-session', { priceId: PRICE });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(BILLING_MESSAGES.alreadySubscribed);
    const portal = await call(t.app, u.cookie, 'POST', '/api/billing/portal');
    expect(portal.statusCode).toBe(200);
    expect(portal.json().url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    const req = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1);
    expect(req?.form.get('customer')).toBe(customer);
    expect(req?.form.get('return_url')).toBe(`${t.ctx.config.publicOrigin}/#/billing`);
    expect(req?.idempotencyKey).toMatch(new RegExp(`^portal:${u.userId}:`));

    const newcomer = await signedInUser(t);
    const none = await call(t.app, newcomer.cookie, 'POST', '/api/billing/portal');
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(BILLING_MESSAGES.noBillingAccount);
  });
});
