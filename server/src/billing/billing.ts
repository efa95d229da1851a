import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/database.ts';
import { BillingService } from './billing-service.ts';
import { BillingStore } from './billing-store.ts';
import type { CheckoutProvider } from './checkout-provider.ts';
import type { ComputeAccounts } from './compute-accounts.ts';
import { Fulfillment } from './fulfillment.ts';
import { LocalBilling } from './local-billing.ts';
import { LocalCheckoutProvider } from './local-checkout-provider.ts';
import type { PlanCatalog } from './plan-catalog.ts';
import { StripeCheckoutProvider } from './stripe-checkout-provider.ts';
import { StripeGateway } from './stripe-gateway.ts';
import { StripeWebhooks } from './stripe-webhooks.ts';
import type { UsageLedger } from './usage-ledger.ts';
import type { UserPlans } from './user-plans.ts';

/** Checkout, fulfilment and subscription state (issue 9), on top of compute's catalog and ledger. */
export interface Billing {
  store: BillingStore;
  fulfillment: Fulfillment;
  service: BillingService;
  /** The built-in test-mode checkout; null when Stripe runs payments (or payments are off). */
  local: LocalBilling | null;
  /** Stripe's webhook handler; null without Stripe keys. */
  webhooks: StripeWebhooks | null;
}

/** Stripe when STRIPE_SECRET_KEY is set; else the built-in checkout unless LOCAL_CHECKOUT=off. */
export function createBilling(
  config: AppConfig,
  db: Db,
  compute: { catalog: PlanCatalog; ledger: UsageLedger; userPlans: UserPlans; accounts: ComputeAccounts },
  log: FastifyBaseLogger,
): Billing {
  const b = config.billing;
  const store = new BillingStore(db);
  const fulfillment = new Fulfillment(store, compute.ledger, compute.userPlans, compute.catalog, log);
  let provider: CheckoutProvider | null = null;
  let local: LocalBilling | null = null;
  let webhooks: StripeWebhooks | null = null;
  if (b.stripeSecretKey && b.stripeWebhookSecret) {
    const stripe = new StripeGateway(b.stripeSecretKey, b.stripeApiBase);
    provider = new StripeCheckoutProvider(stripe, store);
    webhooks = new StripeWebhooks({
      db,
      store,
      fulfillment,
      catalog: compute.catalog,
      stripe,
      webhookSecret: b.stripeWebhookSecret,
      log,
    });
  } else if (b.localCheckout) {
    provider = new LocalCheckoutProvider(config.publicOrigin);
    local = new LocalBilling(db, store, fulfillment, compute.userPlans, compute.catalog);
  }
  const service = new BillingService({
    store,
    catalog: compute.catalog,
    accounts: compute.accounts,
    provider,
    local,
    publicOrigin: config.publicOrigin,
    checkoutTtlHours: b.checkoutTtlHours,
    log,
  });
  return { store, fulfillment, service, local, webhooks };
}
