import { LocalCheckoutSession, LocalPortalInfo } from '@fieldline/contracts';
import { z } from 'zod';
import { requireUser } from '../accounts/guards.ts';
import { HttpError } from '../http/errors.ts';
import type { Route } from '../http/route.ts';
import type { LocalBilling } from './local-billing.ts';

const CheckoutParams = z.object({ id: z.string() });

/**
 * The built-in test-mode checkout and billing portal. Answered only when it is the payment provider
 * (no Stripe keys, LOCAL_CHECKOUT on): with Stripe configured nobody can grant themselves anything here.
 */
export function registerLocalCheckoutRoutes(route: Route, local: LocalBilling | null): void {
  const need = (): LocalBilling => {
    if (!local) throw new HttpError(404, 'not_found', 'The built-in checkout is not enabled on this server');
    return local;
  };

  route({
    method: 'get',
    path: '/api/checkout/local/{id}',
    summary: 'A test-mode checkout session (owner only)',
    tag: 'billing',
    auth: requireUser,
    params: CheckoutParams,
    response: LocalCheckoutSession,
    handler: ({ auth: user, params }) => need().session(user.id, params.id),
  });

  route({
    method: 'post',
    path: '/api/checkout/local/{id}/complete',
    summary: 'Complete a test-mode checkout (runs the same fulfilment as the Stripe webhook)',
    tag: 'billing',
    auth: requireUser,
    params: CheckoutParams,
    response: LocalCheckoutSession,
    handler: ({ auth: user, params }) => need().complete(user.id, params.id),
  });

  route({
    method: 'post',
    path: '/api/checkout/local/{id}/cancel',
    summary: 'Cancel a test-mode checkout',
    tag: 'billing',
    auth: requireUser,
    params: CheckoutParams,
    response: LocalCheckoutSession,
    handler: ({ auth: user, params }) => need().cancel(user.id, params.id),
  });

  route({
    method: 'get',
    path: '/api/billing/local-portal',
    summary: 'The built-in billing portal: the caller’s subscription',
    tag: 'billing',
    auth: requireUser,
    response: LocalPortalInfo,
    handler: ({ auth: user }) => need().portal(user.id),
  });

  route({
    method: 'post',
    path: '/api/billing/local-portal/cancel',
    summary: 'Cancel the caller’s subscription at the end of the period',
    tag: 'billing',
    auth: requireUser,
    response: LocalPortalInfo,
    handler: ({ auth: user }) => need().cancelAtPeriodEnd(user.id),
  });
}
