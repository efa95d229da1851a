import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** A request the fake received: path, form fields (flattened, Stripe's bracket notation) and headers. */
export interface RecordedRequest {
  method: string;
  path: string;
  form: URLSearchParams;
  idempotencyKey: string | null;
  authorization: string | null;
}

interface FakeSubscription {
  id: string;
  customer: string;
  status: string;
  priceId: string;
  metadata: Record<string, string>;
  periodStart: number;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
}

const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * A stand-in for the parts of Stripe's API that billing calls (customers, Checkout Sessions,
 * subscriptions, billing portal), on 127.0.0.1, driven by the real `stripe` SDK through
 * STRIPE_API_BASE. Like Stripe it replays the first answer for a repeated Idempotency-Key. Tests set
 * the subscription state Stripe "has now" with `setSubscription`, and sign webhook payloads with the
 * SDK's own `generateTestHeaderString`.
 */
export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly subscriptions = new Map<string, FakeSubscription>();
  private readonly idempotent = new Map<string, { status: number; body: unknown }>();
  private server: Server | null = null;
  private counter = 0;
  /** Makes the next N API calls fail with a 500 (to test that a failed call grants nothing). */
  failNext = 0;
  base = '';

  static readonly secretKey = 'sk_test_fieldline_fake';
  static readonly webhookSecret = 'whsec_fieldline_test_secret';

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(({ status, body }) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${this.counter}` });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    const { port } = this.server.address() as AddressInfo;
    this.base = `http://127.0.0.1:${port}`;
    return this.base;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => this.server?.close(() => r()));
  }

  setSubscription(sub: {
    id: string;
    customer: string;
    status: string;
    priceId: string;
    metadata?: Record<string, string>;
    periodStart: string;
    periodEnd: string;
    cancelAtPeriodEnd?: boolean;
  }): void {
    this.subscriptions.set(sub.id, {
      ...sub,
      metadata: sub.metadata ?? {},
      periodStart: unix(sub.periodStart),
      periodEnd: unix(sub.periodEnd),
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd ?? false,
    });
  }

  /** The subscription object as Stripe's API (version 2025-03-31 and later) returns it. */
  subscriptionObject(id: string): Record<string, unknown> | null {
    const s = this.subscriptions.get(id);
    if (!s) return null;
    return {
      id: s.id,
      object: 'subscription',
      customer: s.customer,
      status: s.status,
      metadata: s.metadata,
      cancel_at_period_end: s.cancelAtPeriodEnd,
      items: {
        object: 'list',
        data: [
          {
            id: `si_${s.id}`,
            object: 'subscription_item',
            price: { id: s.priceId, object: 'price' },
            quantity: 1,
            current_period_start: s.periodStart,
            current_period_end: s.periodEnd,
          },
        ],
      },
    };
  }

  /** Signs a payload as Stripe does (the SDK's own test helper). */
  static sign(payload: string, options: { secret?: string; timestamp?: number } = {}): string {
    return Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? FakeStripe.webhookSecret,
      timestamp: options.timestamp,
    });
  }

  /** An event envelope as Stripe posts it. */
  static event(id: string, type: string, object: unknown, created = Math.floor(Date.now() / 1000)): string {
    return JSON.stringify({
      id,
      object: 'event',
      api_version: '2026-10-28.endive',
      created,
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object },
    });
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', this.base);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
      idempotencyKey: (req.headers['idempotency-key'] as string | undefined) ?? null,
      authorization: (req.headers.authorization as string | undefined) ?? null,
    };
    this.requests.push(record);
    if (record.authorization !== `Bearer ${FakeStripe.secretKey}`)
      return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key' } } };
    if (this.failNext > 0) {
      this.failNext -= 1;
      return { status: 500, body: { error: { type: 'api_error', message: 'fake outage' } } };
    }
    const key = record.idempotencyKey ? `${record.path}|${record.idempotencyKey}` : null;
    if (key && this.idempotent.has(key)) return this.idempotent.get(key) as { status: number; body: unknown };
    const answer = this.route(record);
    if (key) this.idempotent.set(key, answer);
    return answer;
  }

  private route(r: RecordedRequest): { status: number; body: unknown } {
    this.counter += 1;
    const n = this.counter;
    if (r.method === 'POST' && r.path === '/v1/customers')
      return { status: 200, body: { id: `cus_fake${n}`, object: 'customer', email: r.form.get('email') } };
    if (r.method === 'POST' && r.path === '/v1/checkout/sessions') {
      const id = `cs_test_fake${n}`;
      return {
        status: 200,
        body: {
          id,
          object: 'checkout.session',
          mode: r.form.get('mode'),
          customer: r.form.get('customer'),
          client_reference_id: r.form.get('client_reference_id'),
          url: `https://checkout.stripe.com/c/pay/${id}`,
          payment_status: 'unpaid',
          status: 'open',
        },
      };
    }
    if (r.method === 'POST' && r.path === '/v1/billing_portal/sessions')
      return {
        status: 200,
        body: {
          id: `bps_fake${n}`,
          object: 'billing_portal.session',
          customer: r.form.get('customer'),
          url: `https://billing.stripe.com/p/session/test_fake${n}`,
        },
      };
    const sub = r.path.match(/^\/v1\/subscriptions\/([^/]+)$/);
    if (r.method === 'GET' && sub) {
      const body = this.subscriptionObject(decodeURIComponent(sub[1] as string));
      return body
        ? { status: 200, body }
        : {
            status: 404,
            body: {
              error: {
                type: 'invalid_request_error',
                code: 'resource_missing',
                message: 'No such subscription',
              },
            },
          };
    }
    return {
      status: 404,
      body: { error: { type: 'invalid_request_error', message: `fake: ${r.method} ${r.path}` } },
    };
  }
}
