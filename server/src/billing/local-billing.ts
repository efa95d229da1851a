import { randomUUID } from 'node:crypto';
import { BILLING_MESSAGES, type LocalCheckoutSession, type LocalPortalInfo } from '@fieldline/contracts';
import type { Db } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import type { BillingStore, CheckoutRow } from './billing-store.ts';
import type { Completion, Fulfillment, SubscriptionState } from './fulfillment.ts';
import type { PlanCatalog } from './plan-catalog.ts';
import type { UserPlans } from './user-plans.ts';
import { LIVE_SUBSCRIPTION_STATUSES } from './user-plans.ts';

/** One calendar month later (UTC), clamped to the month's last day: Jan 31 → Feb 28/29. */
export function addMonth(iso: string): string {
  const d = new Date(iso);
  const target = new Date(
    Date.UTC(
      d.getUTCFullYear(),
      d.getUTCMonth() + 1,
      1,
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target.toISOString();
}

const notFound = () => new HttpError(404, 'not_found', BILLING_MESSAGES.checkoutNotFound);

/**
 * The built-in, test-mode payment processor (no Stripe keys): completes or cancels our hosted
 * checkout, renews local subscriptions when their period is over, and stands in for the Customer
 * Portal (cancel at period end). Completion runs `Fulfillment.fulfillCheckout`, as the webhook does.
 */
export class LocalBilling {
  constructor(
    private readonly db: Db,
    private readonly store: BillingStore,
    private readonly fulfillment: Fulfillment,
    private readonly userPlans: UserPlans,
    private readonly catalog: PlanCatalog,
  ) {}

  /** The user's own local checkout (anyone else's is 404), expired when past its time. */
  async session(userId: string, id: string): Promise<LocalCheckoutSession> {
    const row = await this.ownCheckout(userId, id);
    return this.describe(await this.expireIfDue(row));
  }

  async complete(userId: string, id: string, now = new Date()): Promise<LocalCheckoutSession> {
    const row = await this.expireIfDue(await this.ownCheckout(userId, id), now);
    if (row.status === 'completed') return this.describe(row); // a second click changes nothing
    if (row.status === 'expired')
      throw new HttpError(410, 'checkout_expired', BILLING_MESSAGES.checkoutExpired);
    if (row.status !== 'open') throw new HttpError(409, 'checkout_closed', BILLING_MESSAGES.checkoutClosed);

    await this.db.transaction().execute(async (trx) => {
      const completion: Completion =
        row.kind === 'tokens'
          ? { kind: 'tokens', checkout: row }
          : await this.subscriptionCompletion(row, now.toISOString());
      const applied = await this.fulfillment.fulfillCheckout(trx, completion);
      // A plan change through the built-in checkout replaces the previous local subscription.
      if (applied && completion.kind === 'subscription') {
        for (const old of await this.store.subscriptionsOf(userId, trx)) {
          if (old.provider !== 'local' || old.id === completion.subscription.id) continue;
          if (!LIVE_SUBSCRIPTION_STATUSES.includes(old.status)) continue;
          await this.store.upsertSubscription(trx, {
            ...old,
            status: 'canceled',
            updated_at: now.toISOString(),
          });
        }
        await this.fulfillment.syncUserPlan(trx, userId);
      }
    });
    return this.describe((await this.store.checkout(id)) as CheckoutRow);
  }

  async cancel(userId: string, id: string): Promise<LocalCheckoutSession> {
    const row = await this.expireIfDue(await this.ownCheckout(userId, id));
    if (row.status === 'cancelled') return this.describe(row);
    if (row.status !== 'open') throw new HttpError(409, 'checkout_closed', BILLING_MESSAGES.checkoutClosed);
    await this.db.transaction().execute((trx) => this.store.closeCheckout(trx, id, 'cancelled'));
    return this.describe((await this.store.checkout(id)) as CheckoutRow);
  }

  /**
   * Local subscriptions "charge" themselves: each period that has ended is renewed (recorded in the
   * ledger, allowance reset), or the subscription ends if it was cancelled at period end.
   */
  async renewDue(userId: string, now = new Date()): Promise<void> {
    const due = await this.store.dueLocalSubscriptions(userId, now.toISOString());
    if (due.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const sub of due) {
        let state = this.stateOf(sub);
        while (state.periodEnd && state.periodEnd <= now.toISOString()) {
          if (state.cancelAtPeriodEnd) {
            state = { ...state, status: 'canceled' };
            break;
          }
          const start = state.periodEnd;
          state = { ...state, periodStart: start, periodEnd: addMonth(start) };
          await this.fulfillment.recordPeriod(trx, {
            source: 'local-period',
            id: `${sub.id}:${start}`,
            userId,
            planId: sub.plan_id,
            periodStart: state.periodStart,
            periodEnd: state.periodEnd,
          });
        }
        await this.fulfillment.applySubscription(trx, state);
      }
    });
  }

  async portal(userId: string): Promise<LocalPortalInfo> {
    await this.renewDue(userId);
    const effective = await this.userPlans.planOf(userId);
    const [sub] = await this.store.subscriptionsOf(userId);
    const live = sub && LIVE_SUBSCRIPTION_STATUSES.includes(sub.status) ? sub : null;
    return {
      plan: effective.id,
      plan_name: effective.plan.name,
      status: live?.status ?? sub?.status ?? 'active',
      current_period_end: live?.current_period_end ?? null,
      cancel_at_period_end: Boolean(live?.cancel_at_period_end),
      subscription_id: live?.id ?? null,
      test_mode: true,
    };
  }

  /** Cancels the live local subscription at the end of its period (the Customer Portal's default). */
  async cancelAtPeriodEnd(userId: string): Promise<LocalPortalInfo> {
    const [sub] = await this.store.subscriptionsOf(userId);
    if (sub?.provider !== 'local' || !LIVE_SUBSCRIPTION_STATUSES.includes(sub.status))
      throw new HttpError(409, 'no_subscription', 'You have no subscription to cancel.');
    await this.db
      .transaction()
      .execute((trx) =>
        this.fulfillment.applySubscription(trx, { ...this.stateOf(sub), cancelAtPeriodEnd: true }),
      );
    return this.portal(userId);
  }

  private async subscriptionCompletion(row: CheckoutRow, now: string): Promise<Completion> {
    const planId = row.plan_id ?? '';
    if (!this.catalog.get(planId)) throw new HttpError(409, 'unknown_plan', BILLING_MESSAGES.unknownPrice);
    const id = `lsub_${randomUUID()}`;
    const subscription: SubscriptionState = {
      provider: 'local',
      id,
      userId: row.user_id,
      planId,
      priceId: null,
      customerId: null,
      status: 'active',
      periodStart: now,
      periodEnd: addMonth(now),
      cancelAtPeriodEnd: false,
    };
    return {
      kind: 'subscription',
      checkout: row,
      subscription,
      period: {
        source: 'local-period',
        id: `${id}:${now}`,
        userId: row.user_id,
        planId,
        periodStart: subscription.periodStart,
        periodEnd: subscription.periodEnd,
      },
    };
  }

  private stateOf(sub: Awaited<ReturnType<BillingStore['subscriptionsOf']>>[number]): SubscriptionState {
    return {
      provider: 'local',
      id: sub.id,
      userId: sub.user_id,
      planId: sub.plan_id,
      priceId: sub.price_id,
      customerId: sub.customer_id,
      status: sub.status,
      periodStart: sub.current_period_start,
      periodEnd: sub.current_period_end,
      cancelAtPeriodEnd: sub.cancel_at_period_end === 1,
    };
  }

  private async ownCheckout(userId: string, id: string): Promise<CheckoutRow> {
    const row = await this.store.checkout(id);
    if (!row || row.user_id !== userId || row.provider !== 'local') throw notFound();
    return row;
  }

  private async expireIfDue(row: CheckoutRow, now = new Date()): Promise<CheckoutRow> {
    if (row.status !== 'open' || row.expires_at > now.toISOString()) return row;
    await this.db.transaction().execute((trx) => this.store.closeCheckout(trx, row.id, 'expired'));
    return (await this.store.checkout(row.id)) as CheckoutRow;
  }

  private describe(row: CheckoutRow): LocalCheckoutSession {
    const plan = row.plan_id ? this.catalog.get(row.plan_id) : null;
    return {
      id: row.id,
      kind: row.kind,
      status: row.status === 'failed' ? 'cancelled' : row.status,
      description:
        row.kind === 'tokens'
          ? `${row.quantity} compute tokens`
          : `${plan?.name ?? row.plan_id} plan, monthly subscription`,
      quantity: row.quantity,
      plan_id: row.plan_id,
      amount_cents: row.amount_cents,
      currency: row.currency,
      interval: row.kind === 'subscription' ? 'month' : null,
      created_at: row.created_at,
      expires_at: row.expires_at,
      test_mode: true,
    };
  }
}
