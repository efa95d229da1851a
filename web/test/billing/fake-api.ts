import type { SubscriptionInfo } from '@fieldline/contracts';
import { vi } from 'vitest';

export const signedInUser = {
  id: 'u1',
  name: 'Ada Lovelace',
  email: 'ada@analytical-engines.com',
  username: 'ada',
  plan: 'token',
  status: 'active',
  role: 'user',
};

export function subscriptionInfo(overrides: Partial<SubscriptionInfo> = {}): SubscriptionInfo {
  const base: SubscriptionInfo = {
    plan: 'token',
    plan_name: 'Pay As You Go',
    status: 'active',
    current_period_end: null,
    cancel_at_period_end: false,
    tokens_available: 12,
    tokens_used: 0,
    tokens_purchased: 12,
    tokens_remaining: 12,
    compute_hours_used: 0,
    compute_hours_limit: 0,
    hours_used: 0,
    hours_limit: 0,
    hours_remaining: 0,
    last_compute_time: null,
    payment_provider: 'local',
  };
  return { ...base, ...overrides };
}

type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * A fetch stand-in: `'GET /api/plans'` style keys answer, every call is recorded. The auth check
 * answers with a signed-in user unless overridden.
 */
export function fakeApi(routes: Record<string, Handler>) {
  const calls: { key: string; init: RequestInit | undefined }[] = [];
  const all: Record<string, Handler> = {
    'GET /api/auth/check': () => json({ authenticated: true, user: signedInUser }),
    ...routes,
  };
  const fetchMock = vi.fn(async (input: string, init?: RequestInit) => {
    const key = `${(init?.method ?? 'GET').toUpperCase()} ${input}`;
    calls.push({ key, init });
    const handler = all[key];
    if (!handler) return json({ error: 'not_found', message: `no fake for ${key}` }, 404);
    return handler(init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    count: (key: string) => calls.filter((c) => c.key === key).length,
    bodyOf: (key: string) => {
      const c = calls.find((x) => x.key === key);
      return c?.init?.body ? JSON.parse(String(c.init.body)) : undefined;
    },
  };
}
