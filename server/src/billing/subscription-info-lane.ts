import type { SubscriptionInfo } from '@fieldline/contracts';
import { COMPRESS_MIN_BYTES } from '../http/compress-json.ts';
import type { FastRoute, LaneReply } from '../http/fast-lane.ts';
import { cachedCaller, type LaneCallerDeps } from '../http/lane-caller.ts';
import type { BillingService } from './billing-service.ts';

const PATH = '/api/user/subscription-info';

export interface SubscriptionInfoLaneDeps extends LaneCallerDeps {
  billing: Pick<BillingService, 'subscriptionInfoNow'>;
  /** The headers every reply carries (installSecurityHeaders). */
  securityHeaders: Readonly<Record<string, string>>;
}

/**
 * GET /api/user/subscription-info (billing-routes.ts) — the usage panel's 30 s poll — answered from
 * memory when the caller's session and user are cached (as for status polls) and their info is in
 * BillingService's cache, which any usage, plan or subscription change of theirs empties at once.
 * Same bytes and headers as the route (a test compares them). A guest, a miss, or anything unusual
 * goes to the route. On the lane these polls also take their turn under the lane's per-turn budget,
 * so a thousand of them no longer hold up new connections (libuv accepts one per event-loop turn).
 */
export function subscriptionInfoLane(deps: SubscriptionInfoLaneDeps): FastRoute {
  const built = new WeakMap<SubscriptionInfo, LaneReply | null>();
  const security = Object.entries(deps.securityHeaders).flat();
  const build = (info: SubscriptionInfo) => {
    const body = Buffer.from(JSON.stringify(info), 'utf8');
    // A larger body would be compressed by the JSON compression hook: the route sends it.
    if (body.length >= COMPRESS_MIN_BYTES) return null;
    const headers = [
      ...security,
      'cache-control',
      'no-store',
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      String(body.length),
    ];
    return { statusCode: 200, headers, body };
  };
  return (req) => {
    if (req.method !== 'GET' || req.url !== PATH) return undefined;
    const session = cachedCaller(req, deps);
    if (!session?.userId) return undefined; // guests get the route's 401
    const info = deps.billing.subscriptionInfoNow(session.userId);
    if (!info) return undefined;
    let reply = built.get(info);
    if (reply === undefined) {
      reply = build(info);
      built.set(info, reply);
    }
    return reply ?? undefined;
  };
}
