import { BILLING_MESSAGES } from '@fieldline/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { HttpError } from '../http/errors.ts';
import type { BillingStore, CheckoutRow } from './billing-store.ts';
import type { Fulfillment, PaidPeriod, SubscriptionState } from './fulfillment.ts';
import type { PlanCatalog } from './plan-catalog.ts';
import { StripeGateway, type StripeSubscriptionState } from './stripe-gateway.ts';

/** What an event will do once it is recorded: prepared outside the transaction (Stripe reads are network calls). */
interface Prepared {
  outcome: string;
  apply?(trx: Kysely<Database>): Promise<unknown>;
}

export interface WebhookResult {
  received: true;
  duplicate: boolean;
  outcome: string;
}

const PAID = new Set(['paid', 'no_payment_required']);

/**
 * POST /api/stripe/webhook. The signature is verified over the raw body; each event is applied in one
 * transaction that also records its id, so a replay (or a concurrent duplicate delivery) changes
 * nothing. Stripe does not guarantee order, so subscription events are only triggers: the handler
 * re-reads the subscription from Stripe and writes its current state. Grants happen only here.
 */
export class StripeWebhooks {
  constructor(
    private readonly deps: {
      db: Db;
      store: BillingStore;
      fulfillment: Fulfillment;
      catalog: PlanCatalog;
      stripe: StripeGateway;
      webhookSecret: string;
      log: FastifyBaseLogger;
    },
  ) {}

  async handle(rawBody: Buffer, signature: string | undefined): Promise<WebhookResult> {
    const { store, db, log } = this.deps;
    let event: Stripe.Event;
    try {
      if (!signature) throw new Error('no Stripe-Signature header');
      event = this.deps.stripe.constructEvent(rawBody, signature, this.deps.webhookSecret);
    } catch (err) {
      log.warn({ event: 'stripe_webhook_rejected', reason: (err as Error).message });
      throw new HttpError(400, 'invalid_signature', BILLING_MESSAGES.webhookSignature);
    }
    if (await store.eventProcessed(event.id)) return { received: true, duplicate: true, outcome: 'replay' };

    const prepared = await this.prepare(event);
    let duplicate = false;
    await db.transaction().execute(async (trx) => {
      const fresh = await store.recordEvent(trx, {
        id: event.id,
        provider: 'stripe',
        type: event.type,
        event_created: new Date(event.created * 1000).toISOString(),
        processed_at: new Date().toISOString(),
        outcome: prepared.outcome,
      });
      if (!fresh) {
        duplicate = true; // a concurrent delivery of the same event got here first
        return;
      }
      await prepared.apply?.(trx);
    });
    log.info({
      event: 'stripe_webhook',
      id: event.id,
      type: event.type,
      outcome: prepared.outcome,
      duplicate,
    });
    return { received: true, duplicate, outcome: duplicate ? 'replay' : prepared.outcome };
  }

  private async prepare(event: Stripe.Event): Promise<Prepared> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        return this.checkoutPaid(event.data.object, event.type === 'checkout.session.completed');
      case 'checkout.session.async_payment_failed':
      case 'checkout.session.expired':
        return this.checkoutClosed(event.data.object, event.type.endsWith('failed') ? 'failed' : 'expired');
      case 'invoice.paid':
        return this.invoiceEvent(event.data.object, true);
      case 'invoice.payment_failed':
        return this.invoiceEvent(event.data.object, false);
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return this.subscriptionChanged(event.data.object);
      default:
        return { outcome: `ignored: ${event.type}` };
    }
  }

  private async checkoutOf(session: Stripe.Checkout.Session): Promise<CheckoutRow | null> {
    const { store } = this.deps;
    return (
      (await store.checkoutByExternal('stripe', session.id)) ??
      (session.metadata?.checkout_id ? await store.checkout(session.metadata.checkout_id) : null)
    );
  }

  private async checkoutPaid(session: Stripe.Checkout.Session, completedEvent: boolean): Promise<Prepared> {
    const checkout = await this.checkoutOf(session);
    if (!checkout) return { outcome: `ignored: no checkout for ${session.id}` };
    if (session.mode === 'payment') {
      // A delayed payment method completes the session unpaid; async_payment_succeeded follows.
      if (completedEvent && !PAID.has(session.payment_status))
        return { outcome: `awaiting payment (${session.payment_status})` };
      return {
        outcome: `credited ${checkout.quantity} tokens`,
        apply: (trx) => this.deps.fulfillment.fulfillCheckout(trx, { kind: 'tokens', checkout }),
      };
    }
    if (session.mode !== 'subscription' || !session.subscription)
      return { outcome: `ignored: ${session.mode} session` };
    const subscription = await this.readSubscription(idOf(session.subscription), checkout.user_id);
    if (!subscription) return { outcome: 'ignored: subscription for an unknown plan or user' };
    const customer = idOf(session.customer);
    return {
      outcome: `subscription ${subscription.status}`,
      apply: async (trx) => {
        if (customer) await this.deps.store.linkCustomer(checkout.user_id, 'stripe', customer, trx);
        // The period itself is recorded by invoice.paid.
        await this.deps.fulfillment.fulfillCheckout(trx, {
          kind: 'subscription',
          checkout,
          subscription,
          period: null,
        });
        // A checkout closed by an earlier delivery still gets the current state written.
        await this.deps.fulfillment.applySubscription(trx, subscription);
      },
    };
  }

  private async checkoutClosed(
    session: Stripe.Checkout.Session,
    status: 'failed' | 'expired',
  ): Promise<Prepared> {
    const checkout = await this.checkoutOf(session);
    if (!checkout) return { outcome: `ignored: no checkout for ${session.id}` };
    return {
      outcome: `checkout ${status}`,
      apply: (trx) => this.deps.store.closeCheckout(trx, checkout.id, status),
    };
  }

  private async invoiceEvent(invoice: Stripe.Invoice, paid: boolean): Promise<Prepared> {
    const subscriptionId = StripeGateway.invoiceSubscriptionId(invoice);
    if (!subscriptionId) return { outcome: 'ignored: invoice without subscription' };
    const state = await this.readSubscription(subscriptionId);
    if (!state) return { outcome: 'ignored: subscription for an unknown plan or user' };
    if (!paid) {
      return {
        outcome: `payment failed; subscription ${state.status}`,
        apply: (trx) => this.deps.fulfillment.applySubscription(trx, state),
      };
    }
    const line = invoice.lines?.data?.[0]?.period;
    const period: PaidPeriod = {
      source: 'invoice',
      id: invoice.id ?? `${subscriptionId}:${invoice.created}`,
      userId: state.userId,
      planId: state.planId,
      periodStart: line ? new Date(line.start * 1000).toISOString() : state.periodStart,
      periodEnd: line ? new Date(line.end * 1000).toISOString() : state.periodEnd,
    };
    return {
      outcome: `period paid; subscription ${state.status}`,
      apply: async (trx) => {
        await this.deps.fulfillment.recordPeriod(trx, period);
        await this.deps.fulfillment.applySubscription(trx, state);
      },
    };
  }

  private async subscriptionChanged(sub: Stripe.Subscription): Promise<Prepared> {
    const state = await this.readSubscription(sub.id, undefined, sub);
    if (!state) return { outcome: 'ignored: subscription for an unknown plan or user' };
    return {
      outcome: `subscription ${state.status}`,
      apply: (trx) => this.deps.fulfillment.applySubscription(trx, state),
    };
  }

  /**
   * The subscription's current state from Stripe, mapped to our user (metadata, then the customer
   * link, then the checkout's user) and plan (the price, then metadata). Null when either is unknown.
   */
  private async readSubscription(
    id: string,
    fallbackUserId?: string,
    eventCopy?: Stripe.Subscription,
  ): Promise<SubscriptionState | null> {
    const { stripe, store, catalog, log } = this.deps;
    let current: StripeSubscriptionState;
    try {
      current = await stripe.retrieveSubscription(id);
    } catch (err) {
      // A subscription Stripe no longer has: the event's own copy is the last word.
      if (eventCopy && (err as { statusCode?: number }).statusCode === 404)
        current = StripeGateway.subscriptionState(eventCopy);
      else throw err;
    }
    const userId =
      current.metadata.user_id ||
      (current.customerId ? await store.userOfCustomer(current.customerId) : null) ||
      fallbackUserId ||
      (await store.subscription(id))?.user_id;
    // The price decides the plan (a change in the Customer Portal swaps the price, not our metadata).
    const metaPlan = current.metadata.plan_id;
    const planId =
      Object.entries(catalog.all()).find(
        ([, p]) => p.stripe_price_id && p.stripe_price_id === current.priceId,
      )?.[0] ?? (metaPlan && catalog.get(metaPlan) ? metaPlan : null);
    if (!userId || !planId) {
      log.error(
        { subscription: id, userId, price: current.priceId },
        'Stripe subscription not matched to a user and plan',
      );
      return null;
    }
    return {
      provider: 'stripe',
      id: current.id,
      userId,
      planId,
      priceId: current.priceId,
      customerId: current.customerId,
      status: current.status,
      periodStart: current.periodStart,
      periodEnd: current.periodEnd,
      cancelAtPeriodEnd: current.cancelAtPeriodEnd,
    };
  }
}

function idOf(v: string | { id: string } | null): string {
  return typeof v === 'string' ? v : (v?.id ?? '');
}
