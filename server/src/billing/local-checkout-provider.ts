import type { CheckoutProvider, CheckoutRequest, CreatedCheckout } from './checkout-provider.ts';
import type { Plan } from './plan-catalog.ts';

/** The price id of a plan in the built-in checkout, when the plans file names no Stripe price. */
export const localPriceId = (planId: string) => `local_price_${planId}`;

/**
 * The built-in, test-mode checkout used when Stripe is not configured: the "hosted page" is the web
 * app's own /checkout/{id}, which completes or cancels the session through /api/checkout/local/*.
 * Nothing is charged; completion runs the same fulfilment as a Stripe webhook.
 */
export class LocalCheckoutProvider implements CheckoutProvider {
  readonly name = 'local' as const;

  constructor(private readonly publicOrigin: string) {}

  priceIdOf(planId: string, plan: Plan): string {
    return plan.stripe_price_id ?? localPriceId(planId);
  }

  async createCheckout(request: CheckoutRequest): Promise<CreatedCheckout> {
    return {
      externalId: request.checkoutId,
      url: `${this.publicOrigin}/#/checkout/${encodeURIComponent(request.checkoutId)}`,
    };
  }

  async createPortal(): Promise<string> {
    return `${this.publicOrigin}/#/billing/manage`;
  }
}
