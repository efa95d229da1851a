import {
  BillingPortalResponse,
  CreateCheckoutSessionRequest,
  CreateCheckoutSessionResponse,
  PlansResponse,
  PurchaseTokensRequest,
  PurchaseTokensResponse,
  RecentJobsResponse,
  SubscriptionInfo,
} from '@fieldline/contracts';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../accounts/guards.ts';
import type { AppContext } from '../app-context.ts';
import { HttpError } from '../http/errors.ts';

/** Parses a billing body; a mismatch is a 400 with the spec's own text (no field prefix). */
function parseBody<T>(
  schema: {
    safeParse(
      v: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
  },
  body: unknown,
): T {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  throw new HttpError(400, 'invalid_request', parsed.error.issues[0]?.message ?? 'Invalid request');
}

/** Spec 000 §7 billing calls, plus the billing portal and Recent Activity. Routes parse, call, reply. */
export function registerBillingRoutes(app: FastifyInstance, ctx: AppContext): void {
  const billing = ctx.billing.service;
  const api = ctx.api;

  api.add({
    method: 'get',
    path: '/api/plans',
    summary: 'Plans keyed by id',
    tag: 'billing',
    response: PlansResponse,
  });
  app.get('/api/plans', async () => billing.plans());

  api.add({
    method: 'get',
    path: '/api/user/subscription-info',
    summary: "The caller's plan, status and usage (from the ledger)",
    tag: 'billing',
    response: SubscriptionInfo,
  });
  app.get('/api/user/subscription-info', async (request, reply) => {
    const user = requireUser(request);
    reply.header('cache-control', 'no-store');
    return billing.subscriptionInfo(user.id);
  });

  api.add({
    method: 'post',
    path: '/api/create-checkout-session',
    summary: 'Start a subscription checkout for a monthly plan',
    tag: 'billing',
    body: CreateCheckoutSessionRequest,
    response: CreateCheckoutSessionResponse,
  });
  app.post('/api/create-checkout-session', async (request) => {
    const user = requireUser(request);
    const body = parseBody(CreateCheckoutSessionRequest, request.body);
    return billing.createSubscriptionCheckout(user, body.priceId);
  });

  api.add({
    method: 'post',
    path: '/api/purchase-tokens',
    summary: 'Start a token purchase (5, 10, 25, 50, 75, 100, 150, 200, 300 or 500 tokens)',
    tag: 'billing',
    body: PurchaseTokensRequest,
    response: PurchaseTokensResponse,
  });
  app.post('/api/purchase-tokens', async (request) => {
    const user = requireUser(request);
    const body = parseBody(PurchaseTokensRequest, request.body);
    return billing.createTokenCheckout(user, body.quantity);
  });

  api.add({
    method: 'post',
    path: '/api/billing/portal',
    summary: 'Manage Billing: a Stripe Customer Portal session (or the built-in one)',
    tag: 'billing',
    response: BillingPortalResponse,
  });
  app.post('/api/billing/portal', async (request) => billing.portal(requireUser(request)));

  api.add({
    method: 'get',
    path: '/api/user/recent-jobs',
    summary: "The caller's latest jobs (dashboard Recent Activity)",
    tag: 'billing',
    response: RecentJobsResponse,
  });
  app.get('/api/user/recent-jobs', async (request, reply) => {
    const user = requireUser(request);
    reply.header('cache-control', 'no-store');
    return { jobs: await billing.recentJobs(user.id) };
  });
}
