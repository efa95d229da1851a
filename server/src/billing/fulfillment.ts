import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { BillingStore, CheckoutRow } from './billing-store.ts';
import type { ProviderName } from './checkout-provider.ts';
import { DEFAULT_PLAN_ID, type PlanCatalog } from './plan-catalog.ts';
import type { UsageLedger } from './usage-ledger.ts';
import { LIVE_SUBSCRIPTION_STATUSES, type UserPlans } from './user-plans.ts';

/** A subscription's current state, as its provider reports it, mapped to our user and plan. */
export interface SubscriptionState {
  provider: ProviderName;
  id: string;
  userId: string;
  planId: string;
  priceId: string | null;
  customerId: string | null;
  status: string;
  periodStart: string | null;
  periodEnd: string | null;
  cancelAtPeriodEnd: boolean;
}

/** A paid subscription period: recorded once in the ledger (keyed by the invoice, or the local period). */
export interface PaidPeriod {
  source: 'invoice' | 'local-period';
  id: string;
  userId: string;
  planId: string;
  periodStart: string | null;
  periodEnd: string | null;
}

/** A checkout the provider says is paid. */
export type Completion =
  | { kind: 'tokens'; checkout: CheckoutRow }
  | {
      kind: 'subscription';
      checkout: CheckoutRow;
      subscription: SubscriptionState;
      period: PaidPeriod | null;
    };

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '?');

/**
 * Grants what was paid for. The Stripe webhook and the built-in checkout both call `fulfillCheckout`
 * (and `applySubscription` / `recordPeriod` for subscription events) inside the transaction that
 * records the event, so a payment is applied exactly once: the checkout closes with a conditional
 * update, and ledger rows are unique per (source, source_id).
 */
export class Fulfillment {
  constructor(
    private readonly store: BillingStore,
    private readonly ledger: UsageLedger,
    private readonly userPlans: UserPlans,
    private readonly catalog: PlanCatalog,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Fulfils a paid checkout; false (and nothing changed) when it was already closed. */
  async fulfillCheckout(trx: Kysely<Database>, completion: Completion): Promise<boolean> {
    const { checkout } = completion;
    if (!(await this.store.closeCheckout(trx, checkout.id, 'completed'))) return false;
    if (completion.kind === 'tokens') {
      await this.creditTokens(trx, checkout);
      return true;
    }
    await this.applySubscription(trx, completion.subscription);
    if (completion.period) await this.recordPeriod(trx, completion.period);
    return true;
  }

  private async creditTokens(trx: Kysely<Database>, checkout: CheckoutRow): Promise<void> {
    const dollars = (checkout.amount_cents / 100).toFixed(2);
    await this.ledger.append(
      {
        user_id: checkout.user_id,
        entry_type: 'purchase',
        tokens: checkout.quantity,
        hours: 0,
        compute_seconds: null,
        job_id: null,
        plan_id: null,
        source: 'checkout',
        source_id: checkout.id,
        description: `Purchase of ${checkout.quantity} tokens ($${dollars}, ${checkout.provider === 'local' ? 'test mode' : 'Stripe'})`,
      },
      trx,
    );
  }

  /** Writes the subscription as reported, then the user's effective plan from all their subscriptions. */
  async applySubscription(trx: Kysely<Database>, state: SubscriptionState): Promise<void> {
    await this.store.upsertSubscription(trx, {
      id: state.id,
      user_id: state.userId,
      provider: state.provider,
      plan_id: state.planId,
      price_id: state.priceId,
      customer_id: state.customerId,
      status: state.status,
      current_period_start: state.periodStart,
      current_period_end: state.periodEnd,
      cancel_at_period_end: state.cancelAtPeriodEnd ? 1 : 0,
      updated_at: new Date().toISOString(),
    });
    await this.syncUserPlan(trx, state.userId);
  }

  /**
   * The plan compute uses: the user's live subscription (active, trialing, past_due) if any; else the
   * token plan, with the last subscription's status. One ended subscription cannot downgrade a user
   * who has another live one.
   */
  async syncUserPlan(trx: Kysely<Database>, userId: string): Promise<void> {
    const [best] = await this.store.subscriptionsOf(userId, trx);
    if (!best) return;
    const live = LIVE_SUBSCRIPTION_STATUSES.includes(best.status);
    if (live && !this.catalog.get(best.plan_id)) {
      this.log.error({ userId, planId: best.plan_id }, 'subscription for a plan missing from the plans file');
      return;
    }
    await this.userPlans.setPlan(
      userId,
      live ? best.plan_id : DEFAULT_PLAN_ID,
      live
        ? {
            status: best.status,
            periodStart: best.current_period_start,
            currentPeriodEnd: best.current_period_end,
          }
        : { status: best.status },
      trx,
    );
  }

  /** Records a paid period in the ledger (its allowance is counted from period_start). */
  async recordPeriod(trx: Kysely<Database>, period: PaidPeriod): Promise<boolean> {
    const plan = this.catalog.get(period.planId);
    return this.ledger.append(
      {
        user_id: period.userId,
        entry_type: 'subscription_renewal',
        tokens: 0,
        hours: 0,
        compute_seconds: null,
        job_id: null,
        plan_id: period.planId,
        source: period.source,
        source_id: period.id,
        description: `${plan?.name ?? period.planId} plan paid for ${day(period.periodStart)} to ${day(period.periodEnd)}: ${plan?.compute_hours_per_month ?? 0} compute hours`,
      },
      trx,
    );
  }
}
