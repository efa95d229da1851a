import {
  BILLING_MESSAGES,
  type LocalCheckoutSession,
  type LocalPortalInfo,
  type PlansResponse,
  type RecentJob,
  type SubscriptionInfo,
} from '@fieldline/contracts';
import { type ApiResponse, errorText, request } from '../api/http.ts';

/** The billing and usage calls of spec 000 §7 (plus the portal and Recent Activity), with §8's messages. */

/** Stripe's hosted card-payment page for a session id (spec 000 §7: when only sessionId comes back). */
export const stripeHostedCheckoutUrl = (sessionId: string) =>
  `https://checkout.stripe.com/c/pay/${encodeURIComponent(sessionId)}`;

export type Outcome<T> = { ok: true; value: T } | { ok: false; message: string };

/** The server's error text: `message` in our `{error, message}` shape, else a bare `error` string. */
const serverError = (res: ApiResponse): string | null => errorText(res.body, ['message', 'error']) ?? null;

/**
 * GET /api/user/subscription-info. The dashboard sends credentials explicitly; the billing page
 * leaves fetch's default (same-origin cookies), as spec 000 §7 describes.
 */
export async function fetchSubscriptionInfo(
  options: { credentials?: boolean } = {},
): Promise<{ ok: true; info: SubscriptionInfo } | { ok: false; reason: 'not-ok' | 'exception' }> {
  try {
    const res = await request(
      '/api/user/subscription-info',
      options.credentials === false ? {} : { credentials: 'include' },
    );
    if (!res.ok) return { ok: false, reason: 'not-ok' };
    if (res.json === undefined) throw new Error(`subscription info is not JSON: ${res.text.slice(0, 80)}`);
    return { ok: true, info: res.json as SubscriptionInfo };
  } catch (err) {
    console.error('subscription info failed', err);
    return { ok: false, reason: 'exception' };
  }
}

/** POST /api/user/sync-usage: true on success; failures are only logged (spec 000 §8). */
export async function syncUsage(): Promise<boolean> {
  try {
    const res = await request('/api/user/sync-usage', { method: 'POST', credentials: 'include' });
    const body = res.body;
    if (res.ok && body.success === true) return true;
    console.error('usage sync failed', body.error ?? body.message ?? res.status);
  } catch (err) {
    console.error('usage sync failed', err);
  }
  return false;
}

export async function fetchPlans(): Promise<Outcome<PlansResponse>> {
  try {
    const res = await request('/api/plans');
    const body = res.body;
    if (!res.ok) return { ok: false, message: serverError(res) ?? 'Failed to load plans' };
    return { ok: true, value: body as PlansResponse };
  } catch {
    return { ok: false, message: BILLING_MESSAGES.networkError };
  }
}

/**
 * POST /api/create-checkout-session {priceId}: the URL to send the browser to. A missing price id
 * gives 'Missing priceId' without calling the server.
 */
export async function createCheckoutSession(priceId: string | null | undefined): Promise<Outcome<string>> {
  if (!priceId) return { ok: false, message: BILLING_MESSAGES.missingPriceId };
  let res: ApiResponse;
  try {
    res = await request('/api/create-checkout-session', {
      method: 'POST',
      credentials: 'include',
      json: { priceId },
    });
  } catch {
    return { ok: false, message: BILLING_MESSAGES.networkError };
  }
  const body = res.body;
  if (!res.ok) return { ok: false, message: serverError(res) ?? BILLING_MESSAGES.checkoutFailed };
  if (typeof body.checkoutUrl === 'string' && body.checkoutUrl) return { ok: true, value: body.checkoutUrl };
  if (typeof body.sessionId === 'string' && body.sessionId)
    return { ok: true, value: stripeHostedCheckoutUrl(body.sessionId) };
  return { ok: false, message: BILLING_MESSAGES.noCheckoutUrl };
}

/** POST /api/purchase-tokens {quantity}: the checkout URL. */
export async function purchaseTokens(quantity: number): Promise<Outcome<string>> {
  let res: ApiResponse;
  try {
    res = await request('/api/purchase-tokens', {
      method: 'POST',
      credentials: 'include',
      json: { quantity },
    });
  } catch {
    return { ok: false, message: BILLING_MESSAGES.networkError };
  }
  const body = res.body;
  if (res.ok && typeof body.checkout_url === 'string' && body.checkout_url)
    return { ok: true, value: body.checkout_url };
  return { ok: false, message: serverError(res) ?? BILLING_MESSAGES.tokenPurchaseFailed };
}

/** POST /api/billing/portal: the Customer Portal (or the built-in one) for "Manage Billing". */
export async function openBillingPortal(): Promise<Outcome<string>> {
  let res: ApiResponse;
  try {
    res = await request('/api/billing/portal', { method: 'POST', credentials: 'include' });
  } catch {
    return { ok: false, message: BILLING_MESSAGES.networkError };
  }
  const body = res.body;
  if (res.ok && typeof body.url === 'string') return { ok: true, value: body.url };
  return { ok: false, message: serverError(res) ?? 'Failed to open billing management' };
}

export async function fetchRecentJobs(): Promise<Outcome<RecentJob[]>> {
  try {
    const res = await request('/api/user/recent-jobs', { credentials: 'include' });
    const body = res.body;
    if (!res.ok || !Array.isArray(body.jobs))
      return { ok: false, message: serverError(res) ?? 'Failed to load recent simulations' };
    return { ok: true, value: body.jobs as RecentJob[] };
  } catch {
    return { ok: false, message: BILLING_MESSAGES.networkError };
  }
}

export async function fetchLocalCheckout(id: string): Promise<Outcome<LocalCheckoutSession>> {
  try {
    const res = await request(`/api/checkout/local/${encodeURIComponent(id)}`, { credentials: 'include' });
    const body = res.body;
    if (!res.ok) return { ok: false, message: serverError(res) ?? BILLING_MESSAGES.checkoutNotFound };
    return { ok: true, value: body as LocalCheckoutSession };
  } catch {
    return { ok: false, message: BILLING_MESSAGES.networkError };
  }
}

/** Completes or cancels a test-mode checkout; the server runs the fulfilment and answers the session. */
export async function finishLocalCheckout(
  id: string,
  action: 'complete' | 'cancel',
): Promise<Outcome<LocalCheckoutSession>> {
  try {
    const res = await request(`/api/checkout/local/${encodeURIComponent(id)}/${action}`, {
      method: 'POST',
      credentials: 'include',
    });
    const body = res.body;
    if (!res.ok) return { ok: false, message: serverError(res) ?? 'The checkout could not be finished' };
    return { ok: true, value: body as LocalCheckoutSession };
  } catch {
    return { ok: false, message: BILLING_MESSAGES.networkError };
  }
}

export async function fetchLocalPortal(): Promise<Outcome<LocalPortalInfo>> {
  try {
    const res = await request('/api/billing/local-portal', { credentials: 'include' });
    const body = res.body;
    if (!res.ok) return { ok: false, message: serverError(res) ?? 'Failed to load the subscription' };
    return { ok: true, value: body as LocalPortalInfo };
  } catch {
    return { ok: false, message: BILLING_MESSAGES.networkError };
  }
}

export async function cancelLocalSubscription(): Promise<Outcome<LocalPortalInfo>> {
  try {
    const res = await request('/api/billing/local-portal/cancel', { method: 'POST', credentials: 'include' });
    const body = res.body;
    if (!res.ok) return { ok: false, message: serverError(res) ?? 'The subscription could not be cancelled' };
    return { ok: true, value: body as LocalPortalInfo };
  } catch {
    return { ok: false, message: BILLING_MESSAGES.networkError };
  }
}

/** How the page leaves for a payment URL; tests replace `assign` to see where it would go. */
export const browserNavigation = { assign: (url: string) => window.location.assign(url) };

/** Sends the browser to a payment or portal URL (spec 000 §4: checkout ends with this redirect). */
export function redirectTo(url: string): void {
  browserNavigation.assign(url);
}
