import {
  BillingPortalResponse,
  CreateCheckoutSessionRequest,
  CreateCheckoutSessionResponse,
  PlansResponse,
  PurchaseTokensRequest,
  PurchaseTokensResponse,
  SubscriptionInfo,
} from '@fieldline/contracts';
import type { z } from 'zod';
import { requireUser } from '../accounts/guards.ts';
import { HttpError } from '../http/errors.ts';
import type { Route } from '../http/route.ts';
import type { BillingService } from './billing-service.ts';

/** A billing body that does not fit: a 400 with the spec's own text (no field prefix). */
const specText = (_part: string, error: z.ZodError) =>
  new HttpError(400, 'invalid_request', error.issues[0]?.message ?? 'Invalid request');

/**
 * The service refuses other price ids with the spec's text; the enum tells /api/docs readers which
 * exist (none when payments are off: every call is then a 503).
 */
function checkoutRequestOf(priceIds: string[]) {
  if (priceIds.length === 0) return CreateCheckoutSessionRequest;
  return CreateCheckoutSessionRequest.extend({
    priceId: CreateCheckoutSessionRequest.shape.priceId.meta({ enum: priceIds }),
  });
}

/** Spec 000 §7 billing calls, plus the billing portal. Routes parse, call, reply. */
export function registerBillingRoutes(route: Route, billing: BillingService): void {
  route({
    method: 'get',
    path: '/api/plans',
    summary: 'Plans keyed by id',
    tag: 'billing',
    response: PlansResponse,
    handler: () => billing.plans(),
  });

  route({
    method: 'get',
    path: '/api/user/subscription-info',
    summary: "The caller's plan, status and usage (from the ledger)",
    tag: 'billing',
    auth: requireUser,
    response: SubscriptionInfo,
    // The usage panel's poll: session and user may come from the few-seconds cache (revocation is immediate).
    config: { cachedAuth: true },
    handler: ({ auth: user }, _request, reply) => {
      reply.header('cache-control', 'no-store');
      return billing.subscriptionInfo(user.id);
    },
  });

  route({
    method: 'post',
    path: '/api/create-checkout-session',
    summary: 'Start a subscription checkout for a monthly plan',
    tag: 'billing',
    auth: requireUser,
    body: checkoutRequestOf(billing.monthlyPriceIds()),
    emptyBody: {},
    invalid: specText,
    response: CreateCheckoutSessionResponse,
    handler: ({ auth: user, body }) => billing.createSubscriptionCheckout(user, body.priceId),
  });

  route({
    method: 'post',
    path: '/api/purchase-tokens',
    summary: 'Start a token purchase (5, 10, 25, 50, 75, 100, 150, 200, 300 or 500 tokens)',
    tag: 'billing',
    auth: requireUser,
    body: PurchaseTokensRequest,
    emptyBody: {},
    invalid: specText,
    response: PurchaseTokensResponse,
    handler: ({ auth: user, body }) => billing.createTokenCheckout(user, body.quantity),
  });

  route({
    method: 'post',
    path: '/api/billing/portal',
    summary: 'Manage Billing: a Stripe Customer Portal session (or the built-in one)',
    tag: 'billing',
    auth: requireUser,
    response: BillingPortalResponse,
    handler: ({ auth: user }) => billing.portal(user),
  });
}
