import { LocalCheckoutSession, LocalPortalInfo } from '@fieldline/contracts';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../accounts/guards.ts';
import type { AppContext } from '../app-context.ts';
import { HttpError } from '../http/errors.ts';
import type { LocalBilling } from './local-billing.ts';

/**
 * The built-in test-mode checkout and billing portal. Registered only when it is the payment provider
 * (no Stripe keys, LOCAL_CHECKOUT on): with Stripe configured nobody can grant themselves anything here.
 */
export function registerLocalCheckoutRoutes(app: FastifyInstance, ctx: AppContext): void {
  const local = ctx.billing.local;
  const api = ctx.api;
  const need = (): LocalBilling => {
    if (!local) throw new HttpError(404, 'not_found', 'The built-in checkout is not enabled on this server');
    return local;
  };
  const idOf = (request: { params: unknown }) => String((request.params as { id: string }).id);

  api.add({
    method: 'get',
    path: '/api/checkout/local/{id}',
    summary: 'A test-mode checkout session (owner only)',
    tag: 'billing',
    response: LocalCheckoutSession,
  });
  app.get('/api/checkout/local/:id', async (request) =>
    need().session(requireUser(request).id, idOf(request)),
  );

  api.add({
    method: 'post',
    path: '/api/checkout/local/{id}/complete',
    summary: 'Complete a test-mode checkout (runs the same fulfilment as the Stripe webhook)',
    tag: 'billing',
    response: LocalCheckoutSession,
  });
  app.post('/api/checkout/local/:id/complete', async (request) =>
    need().complete(requireUser(request).id, idOf(request)),
  );

  api.add({
    method: 'post',
    path: '/api/checkout/local/{id}/cancel',
    summary: 'Cancel a test-mode checkout',
    tag: 'billing',
    response: LocalCheckoutSession,
  });
  app.post('/api/checkout/local/:id/cancel', async (request) =>
    need().cancel(requireUser(request).id, idOf(request)),
  );

  api.add({
    method: 'get',
    path: '/api/billing/local-portal',
    summary: 'The built-in billing portal: the caller’s subscription',
    tag: 'billing',
    response: LocalPortalInfo,
  });
  app.get('/api/billing/local-portal', async (request) => need().portal(requireUser(request).id));

  api.add({
    method: 'post',
    path: '/api/billing/local-portal/cancel',
    summary: 'Cancel the caller’s subscription at the end of the period',
    tag: 'billing',
    response: LocalPortalInfo,
  });
  app.post('/api/billing/local-portal/cancel', async (request) =>
    need().cancelAtPeriodEnd(requireUser(request).id),
  );
}
