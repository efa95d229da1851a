import Stripe from 'stripe';

/** What we read from a Stripe subscription, whichever API version wrote it. */
export interface StripeSubscriptionState {
  id: string;
  customerId: string | null;
  status: string;
  priceId: string | null;
  metadata: Record<string, string>;
  /** ISO times; null when Stripe has none (e.g. incomplete). */
  periodStart: string | null;
  periodEnd: string | null;
  cancelAtPeriodEnd: boolean;
}

const iso = (unix: unknown) => (typeof unix === 'number' ? new Date(unix * 1000).toISOString() : null);
const idOf = (v: unknown): string | null =>
  typeof v === 'string'
    ? v
    : v && typeof v === 'object' && 'id' in v
      ? String((v as { id: unknown }).id)
      : null;

/**
 * The few Stripe API calls billing makes, through the official SDK. `apiBase` points the SDK at
 * another address (a stand-in in tests); every create carries an idempotency key derived from our row.
 */
export class StripeGateway {
  readonly client: Stripe;

  constructor(secretKey: string, apiBase: string | null) {
    const config: ConstructorParameters<typeof Stripe>[1] = {
      maxNetworkRetries: 2,
      telemetry: false,
      timeout: 20_000,
    };
    if (apiBase) {
      const url = new URL(apiBase);
      config.host = url.hostname;
      config.port = url.port || (url.protocol === 'https:' ? '443' : '80');
      config.protocol = url.protocol === 'https:' ? 'https' : 'http';
    }
    this.client = new Stripe(secretKey, config);
  }

  async createCustomer(user: { id: string; email: string; name: string }): Promise<string> {
    const customer = await this.client.customers.create(
      { email: user.email, name: user.name, metadata: { user_id: user.id } },
      { idempotencyKey: `customer:${user.id}` },
    );
    return customer.id;
  }

  async createCheckoutSession(
    params: Stripe.Checkout.SessionCreateParams,
    idempotencyKey: string,
  ): Promise<{ id: string; url: string | null }> {
    const session = await this.client.checkout.sessions.create(params, { idempotencyKey });
    return { id: session.id, url: session.url };
  }

  async createPortalSession(customerId: string, returnUrl: string, idempotencyKey: string): Promise<string> {
    const session = await this.client.billingPortal.sessions.create(
      { customer: customerId, return_url: returnUrl },
      { idempotencyKey },
    );
    return session.url;
  }

  /** The subscription as Stripe has it now (webhooks are only triggers: order is not guaranteed). */
  async retrieveSubscription(id: string): Promise<StripeSubscriptionState> {
    return StripeGateway.subscriptionState(await this.client.subscriptions.retrieve(id));
  }

  /** Verifies the signature over the raw body and parses the event (throws on any mismatch). */
  constructEvent(rawBody: Buffer, signature: string, secret: string): Stripe.Event {
    return this.client.webhooks.constructEvent(rawBody, signature, secret);
  }

  /**
   * Reads a subscription object. Since API version 2025-03-31 the period lives on the items; older
   * versions kept it on the subscription, so both are read.
   */
  static subscriptionState(sub: Stripe.Subscription): StripeSubscriptionState {
    const raw = sub as unknown as Record<string, unknown>;
    const item = sub.items?.data?.[0] as (Stripe.SubscriptionItem & Record<string, unknown>) | undefined;
    return {
      id: sub.id,
      customerId: idOf(sub.customer),
      status: sub.status,
      priceId: item?.price?.id ?? null,
      metadata: { ...(sub.metadata ?? {}) },
      periodStart: iso(item?.current_period_start ?? raw.current_period_start),
      periodEnd: iso(item?.current_period_end ?? raw.current_period_end),
      cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end),
    };
  }

  /** The subscription an invoice belongs to (`parent.subscription_details` now, `subscription` before). */
  static invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
    const raw = invoice as unknown as Record<string, unknown>;
    return idOf(invoice.parent?.subscription_details?.subscription) ?? idOf(raw.subscription);
  }
}
