import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../src/app-context.ts';

/** Calls as the signed-in user of `cookie`. */
export async function call(
  app: FastifyInstance,
  cookie: string | null,
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
) {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  return app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

export async function subscriptionInfo(app: FastifyInstance, cookie: string) {
  const res = await call(app, cookie, 'GET', '/api/user/subscription-info');
  if (res.statusCode !== 200) throw new Error(`subscription-info: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Buys tokens through the built-in checkout: create, then complete (as the hosted page does). */
export async function buyTokensLocally(app: FastifyInstance, cookie: string, quantity: number) {
  const created = await call(app, cookie, 'POST', '/api/purchase-tokens', { quantity });
  if (created.statusCode !== 200) throw new Error(`purchase-tokens: ${created.statusCode} ${created.body}`);
  const id = created.json().session_id as string;
  const done = await call(app, cookie, 'POST', `/api/checkout/local/${id}/complete`);
  if (done.statusCode !== 200) throw new Error(`complete: ${done.statusCode} ${done.body}`);
  return id;
}

export async function ledgerRows(ctx: AppContext, userId: string) {
  return ctx.db
    .selectFrom('usage_ledger')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}
