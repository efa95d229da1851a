import { randomUUID } from 'node:crypto';
import {
  BILLING_MESSAGES,
  type CreateCheckoutSessionResponse,
  type Plan,
  type PurchaseTokensResponse,
  type SubscriptionInfo,
  TOKEN_PRICE_USD,
} from '@fieldline/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { CurrentUser } from '../accounts/user-store.ts';
import { HttpError } from '../http/errors.ts';
import type { BillingStore, CheckoutRow } from './billing-store.ts';
import type { CheckoutProvider } from './checkout-provider.ts';
import type { ComputeAccounts } from './compute-accounts.ts';
import type { LocalBilling } from './local-billing.ts';
import type { PlanCatalog } from './plan-catalog.ts';
import { UsageCache } from './usage-changes.ts';
import { roundUnits } from './usage-ledger.ts';
import { LIVE_SUBSCRIPTION_STATUSES } from './user-plans.ts';

/** How long a user's subscription info is reused when nothing of theirs changed (here or, by then, elsewhere). */
export const SUBSCRIPTION_INFO_TTL_MS = 5_000;

/**
 * Plans, subscription info and checkout creation (spec 000 §3, §7). Checkouts are recorded before the
 * provider is called, so the provider's idempotency key and our ledger key are the same row id.
 */
export class BillingService {
  constructor(
    private readonly deps: {
      store: BillingStore;
      catalog: PlanCatalog;
      accounts: ComputeAccounts;
      /** null when payments are switched off (no Stripe keys and LOCAL_CHECKOUT=off). */
      provider: CheckoutProvider | null;
      local: LocalBilling | null;
      publicOrigin: string;
      checkoutTtlHours: number;
      log: FastifyBaseLogger;
    },
  ) {}

  get providerName(): SubscriptionInfo['payment_provider'] {
    return this.deps.provider?.name ?? 'disabled';
  }

  /** GET /api/plans: the catalog, each plan with the price id its checkout sells (null when it cannot). */
  plans(): Record<string, Plan> {
    // Built once: the catalog and the provider's price ids are fixed for the life of the process.
    this.planList ??= this.buildPlans();
    return this.planList;
  }

  private planList: Record<string, Plan> | undefined;

  /** The price ids POST /api/create-checkout-session sells (monthly plans), for /api/docs. */
  monthlyPriceIds(): string[] {
    return Object.values(this.plans())
      .filter((plan) => plan.billing_cycle === 'monthly' && plan.stripe_price_id)
      .map((plan) => plan.stripe_price_id as string);
  }

  private buildPlans(): Record<string, Plan> {
    const all = this.deps.catalog.all();
    for (const [id, plan] of Object.entries(all)) {
      plan.stripe_price_id =
        plan.billing_cycle === 'monthly' && this.deps.provider
          ? this.deps.provider.priceIdOf(id, plan)
          : plan.stripe_price_id;
    }
    return all;
  }

  /**
   * GET /api/user/subscription-info, derived from the ledger. Token figures keep the invariant
   * tokens_available = tokens_purchased − tokens_used ≥ 0: a charge beyond the balance (a job that ran
   * longer than its estimate) counts as used only up to what was bought.
   */
  subscriptionInfo(userId: string): Promise<SubscriptionInfo> {
    // The usage panel polls this every 30 s per tab; a usage change drops the user's entry at once.
    return this.infoCache.get(
      userId,
      () => this.readSubscriptionInfo(userId),
      (info) => (info.current_period_end ? Date.parse(info.current_period_end) : null),
    );
  }

  /** The subscription info `subscriptionInfo` would return from its cache right now, without a read. */
  subscriptionInfoNow(userId: string): SubscriptionInfo | undefined {
    return this.infoCache.peek(userId);
  }

  private readonly infoCache = new UsageCache<SubscriptionInfo>(SUBSCRIPTION_INFO_TTL_MS);

  private async readSubscriptionInfo(userId: string): Promise<SubscriptionInfo> {
    await this.deps.local?.renewDue(userId);
    const s = await this.deps.accounts.summary(userId);
    const [sub] = await this.deps.store.subscriptionsOf(userId);
    const purchased = roundUnits(Math.max(0, s.tokens_purchased));
    const used = roundUnits(Math.min(purchased, Math.max(0, s.tokens_used)));
    const available = roundUnits(purchased - used);
    const hoursUsed = roundUnits(Math.max(0, s.compute_hours_used));
    const hoursLimit = Math.max(0, s.compute_hours_limit);
    return {
      plan: s.plan,
      plan_name: s.plan_name,
      status: s.status,
      current_period_end: s.current_period_end,
      cancel_at_period_end: Boolean(sub && sub.plan_id === s.plan && sub.cancel_at_period_end),
      tokens_available: available,
      tokens_used: used,
      tokens_purchased: purchased,
      tokens_remaining: available,
      compute_hours_used: hoursUsed,
      compute_hours_limit: hoursLimit,
      hours_used: hoursUsed,
      hours_limit: hoursLimit,
      hours_remaining: roundUnits(Math.max(0, hoursLimit - hoursUsed)),
      last_compute_time: s.last_compute_time,
      payment_provider: this.providerName,
    };
  }

  /** POST /api/create-checkout-session {priceId}: a subscription to the monthly plan sold at that price. */
  async createSubscriptionCheckout(
    user: CurrentUser,
    priceId: string,
  ): Promise<CreateCheckoutSessionResponse> {
    const provider = this.requireProvider();
    const match = Object.entries(this.deps.catalog.all()).find(
      ([id, plan]) => plan.billing_cycle === 'monthly' && provider.priceIdOf(id, plan) === priceId,
    );
    if (!match) throw new HttpError(400, 'unknown_price', BILLING_MESSAGES.unknownPrice);
    const [planId, plan] = match;

    const live = (await this.deps.store.subscriptionsOf(user.id)).find((s) =>
      LIVE_SUBSCRIPTION_STATUSES.includes(s.status),
    );
    // Stripe would bill a second subscription on top of the first; plan changes go through the portal.
    if (live && (live.plan_id === planId || provider.name === 'stripe'))
      throw new HttpError(409, 'already_subscribed', BILLING_MESSAGES.alreadySubscribed);

    const row = await this.recordCheckout(user, provider.name, {
      kind: 'subscription',
      plan_id: planId,
      quantity: 1,
      amount_cents: Math.round(plan.price_monthly * 100),
    });
    const created = await this.startCheckout(provider, row, user, { id: planId, plan, priceId });
    return { checkoutUrl: created.url, sessionId: created.externalId };
  }

  /** POST /api/purchase-tokens {quantity}: one of the fixed packs, $1 per token. */
  async createTokenCheckout(user: CurrentUser, quantity: number): Promise<PurchaseTokensResponse> {
    const provider = this.requireProvider();
    const row = await this.recordCheckout(user, provider.name, {
      kind: 'tokens',
      plan_id: null,
      quantity,
      amount_cents: quantity * TOKEN_PRICE_USD * 100,
    });
    const created = await this.startCheckout(provider, row, user, null);
    return { checkout_url: created.url, session_id: created.externalId };
  }

  /** POST /api/billing/portal: "Manage Billing". */
  async portal(user: CurrentUser): Promise<{ url: string }> {
    const provider = this.requireProvider();
    return { url: await provider.createPortal(user, `${this.deps.publicOrigin}/#/billing`) };
  }

  /** GET /api/user/recent-jobs: the dashboard's Recent Activity (the caller's own jobs only). */
  private requireProvider(): CheckoutProvider {
    if (!this.deps.provider) throw new HttpError(503, 'payments_disabled', BILLING_MESSAGES.paymentsDisabled);
    return this.deps.provider;
  }

  private async recordCheckout(
    user: CurrentUser,
    provider: CheckoutRow['provider'],
    what: Pick<CheckoutRow, 'kind' | 'plan_id' | 'quantity' | 'amount_cents'>,
  ): Promise<CheckoutRow> {
    const now = new Date();
    const row: CheckoutRow = {
      id: `chk_${randomUUID().replace(/-/g, '')}`,
      user_id: user.id,
      provider,
      ...what,
      currency: 'usd',
      status: 'open',
      external_id: null,
      url: null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + this.deps.checkoutTtlHours * 3600_000).toISOString(),
      completed_at: null,
    };
    await this.deps.store.insertCheckout(row);
    return row;
  }

  private async startCheckout(
    provider: CheckoutProvider,
    row: CheckoutRow,
    user: CurrentUser,
    plan: { id: string; plan: Plan; priceId: string } | null,
  ) {
    const back = `${this.deps.publicOrigin}/#/billing`;
    try {
      const created = await provider.createCheckout({
        checkoutId: row.id,
        user: { id: user.id, email: user.email, name: user.name },
        kind: row.kind,
        quantity: row.quantity,
        plan,
        amountCents: row.amount_cents,
        successUrl: `${back}?checkout=success${row.kind === 'tokens' ? '&tab=tokens' : ''}`,
        cancelUrl: `${back}?checkout=cancelled${row.kind === 'tokens' ? '&tab=tokens' : ''}`,
      });
      await this.deps.store.attachExternal(row.id, created.externalId, created.url);
      return created;
    } catch (err) {
      await this.deps.store.failCheckout(row.id);
      if (err instanceof HttpError) throw err;
      this.deps.log.error(
        { err, checkout: row.id, provider: provider.name },
        'checkout could not be created',
      );
      throw new HttpError(502, 'checkout_failed', BILLING_MESSAGES.checkoutFailed);
    }
  }
}
