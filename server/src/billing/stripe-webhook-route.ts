import { BILLING_MESSAGES } from '@fieldline/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../http/errors.ts';
import type { ApiRegistry } from '../http/openapi.ts';
import { createRouter } from '../http/route.ts';
import type { StripeWebhooks } from './stripe-webhooks.ts';

/** What Stripe gets back for an event: applied now, or a replay of one already applied. */
const WebhookAck = z.object({ received: z.literal(true), duplicate: z.boolean(), outcome: z.string() });

/**
 * POST /api/stripe/webhook. Registered in its own scope whose only body parser keeps the raw bytes:
 * Stripe signs the exact body, so it must not be parsed (and re-serialised) before verification.
 * The route is exempt from the CSRF checks; its signature authenticates it.
 */
export async function registerStripeWebhookRoute(
  app: FastifyInstance,
  api: ApiRegistry,
  webhooks: StripeWebhooks | null,
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    createRouter(
      scope,
      api,
    )({
      method: 'post',
      path: '/api/stripe/webhook',
      summary: 'Stripe events (signature-verified; each applied once)',
      tag: 'billing',
      response: WebhookAck,
      handler: async (_input, request) => {
        if (!webhooks) throw new HttpError(404, 'not_found', BILLING_MESSAGES.webhookNotConfigured);
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        return webhooks.handle(raw, typeof signature === 'string' ? signature : undefined);
      },
    });
  });
}
