import type { IncomingMessage } from 'node:http';
import type { CachedUsers } from '../accounts/current-user.ts';
import { SESSION_COOKIE } from '../sessions/session-plugin.ts';
import type { Session, SessionService } from '../sessions/session-service.ts';

/** What a fast-lane route needs to know who is asking, from memory only. */
export interface LaneCallerDeps {
  sessions: SessionService;
  users: CachedUsers;
}

/**
 * The caller's session when the route's `cachedAuth` path would accept it without a query: a fresh
 * cached session (no expiry to enforce, no touch due) and, if signed in, a user read as active in the
 * last few seconds. Undefined sends the request to Fastify (which reads, refuses or ends the session).
 */
export function cachedCaller(req: IncomingMessage, deps: LaneCallerDeps): Readonly<Session> | undefined {
  // Bearer requests (API tokens) are authenticated by the route's hooks, never from the cookie cache.
  if (req.headers.authorization !== undefined) return undefined;
  const raw = cookieValue(req.headers.cookie);
  if (!raw) return undefined;
  const session = deps.sessions.sharedCachedNow(raw);
  if (!session) return undefined;
  if (session.userId && !deps.users.isCachedActive(session.userId)) return undefined;
  return session;
}

const cookieValues = new Map<string, string | undefined>();

/** sessionCookie, remembered per Cookie header (a poller sends the same one): no split per poll. */
function cookieValue(header: string | undefined): string | undefined {
  if (!header) return undefined;
  if (cookieValues.has(header)) return cookieValues.get(header);
  const value = sessionCookie(header);
  if (cookieValues.size >= 1024) cookieValues.clear();
  cookieValues.set(header, value);
  return value;
}

/** The first `fl_session` cookie's value as @fastify/cookie reads it, or undefined when it would decode it. */
export function sessionCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    // Quoted or percent-encoded values are decoded by the cookie parser: leave them to it.
    return value.length > 0 && !/["%]/.test(value) ? value : undefined;
  }
  return undefined;
}
