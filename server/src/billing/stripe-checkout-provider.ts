import { randomUUID } from 'node:crypto';
import { BILLING_MESSAGES } from '@fieldline/contracts';
import { HttpError } from '../http/errors.ts';
import type { BillingStore } from './billing-store.ts';
import type { CheckoutProvider, CheckoutRequest, CreatedCheckout } from './checkout-provider.ts';
import type { Plan } from './plan-catalog.ts';
import type { StripeGateway } from './stripe-gateway.ts';

/**
 * Stripe Checkout: subscriptions sell the plan's Stripe Price (`mode: subscription`), token packs
 * are a one-time payment of $1 × quantity (`mode: payment`). The user's Stripe Customer is created
 * once and kept; the session carries our checkout id and the user id so the webhook can fulfil it.
 */
export class StripeCheckoutProvider implements CheckoutProvider {
  readonly name = 'stripe' as const;

  constructor(
    private readonly stripe: StripeGateway,
    private readonly store: BillingStore,
  ) {}

  /** Only plans with a configured Stripe Price can be sold through Stripe. */
  priceIdOf(_planId: string, plan: Plan): string | null {
    return plan.stripe_price_id;
  }

  private async customerFor(user: CheckoutRequest['user']): Promise<string> {
    const existing = await this.store.customerOf(user.id);
    if (existing) return existing;
    const created = await this.stripe.createCustomer(user);
    await this.store.linkCustomer(user.id, 'stripe', created);
    // Two first checkouts at once create the same customer (same idempotency key); keep whichever linked first.
    return (await this.store.customerOf(user.id)) ?? created;
  }

  async createCheckout(request: CheckoutRequest): Promise<CreatedCheckout> {
    const customer = await this.customerFor(request.user);
    const metadata = {
      checkout_id: request.checkoutId,
      user_id: request.user.id,
      kind: request.kind,
      quantity: String(request.quantity),
      plan_id: request.plan?.id ?? '',
    };
    const common = {
      customer,
      client_reference_id: request.user.id,
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      metadata,
    };
    const session =
      request.kind === 'subscription' && request.plan
        ? await this.stripe.createCheckoutSession(
            {
              ...common,
              mode: 'subscription',
              line_items: [{ price: request.plan.priceId, quantity: 1 }],
              subscription_data: { metadata: { user_id: request.user.id, plan_id: request.plan.id } },
            },
            `checkout:${request.checkoutId}`,
          )
        : await this.stripe.createCheckoutSession(
            {
              ...common,
              mode: 'payment',
              line_items: [
                {
                  quantity: request.quantity,
                  price_data: {
                    currency: 'usd',
                    unit_amount: 100,
                    product_data: {
                      name: 'Fieldline compute tokens',
                      description: 'One token buys one compute-hour on the pay-as-you-go plan.',
                    },
                  },
                },
              ],
              payment_intent_data: { metadata },
            },
            `checkout:${request.checkoutId}`,
          );
    if (!session.url) throw new HttpError(502, 'checkout_failed', BILLING_MESSAGES.noCheckoutUrl);
    return { externalId: session.id, url: session.url };
  }

  async createPortal(user: { id: string }, returnUrl: string): Promise<string> {
    const customer = await this.store.customerOf(user.id);
    if (!customer) throw new HttpError(409, 'no_billing_account', BILLING_MESSAGES.noBillingAccount);
    // Portal sessions are short-lived and made on demand; the key only guards this request's retries.
    return this.stripe.createPortalSession(customer, returnUrl, `portal:${user.id}:${randomUUID()}`);
  }
}
