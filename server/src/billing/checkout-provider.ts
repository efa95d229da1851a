import type { Plan } from './plan-catalog.ts';

export type ProviderName = 'stripe' | 'local';

/** A checkout we have recorded (checkout_sessions row) and now ask the provider to run. */
export interface CheckoutRequest {
  /** Our id (`chk_…`): the provider's idempotency key and metadata carry it. */
  checkoutId: string;
  user: { id: string; email: string; name: string };
  kind: 'tokens' | 'subscription';
  /** Tokens bought (1 for a subscription). */
  quantity: number;
  /** The plan and the price id the billing page sent (subscriptions only). */
  plan: { id: string; plan: Plan; priceId: string } | null;
  amountCents: number;
  successUrl: string;
  cancelUrl: string;
}

export interface CreatedCheckout {
  /** The provider's session id (Stripe cs_…; ours for the local checkout). */
  externalId: string;
  /** Where the browser goes to pay. */
  url: string;
}

/**
 * Runs checkouts and the billing portal. Two implementations: Stripe (STRIPE_SECRET_KEY set) and the
 * built-in test-mode checkout. Neither grants anything here: fulfilment happens when the provider
 * confirms the payment (Stripe's webhook, or the local checkout's completion), through `Fulfillment`.
 */
export interface CheckoutProvider {
  readonly name: ProviderName;
  /** The price id a plan is sold under, or null when this provider cannot sell it. */
  priceIdOf(planId: string, plan: Plan): string | null;
  createCheckout(request: CheckoutRequest): Promise<CreatedCheckout>;
  /** A URL where the user manages the subscription and payment methods ("Manage Billing"). */
  createPortal(user: { id: string }, returnUrl: string): Promise<string>;
}
