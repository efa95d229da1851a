import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasBearer } from '../accounts/bearer-header.ts';
import type { Session, SessionService } from './session-service.ts';

export const SESSION_COOKIE = 'fl_session';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
  interface FastifyContextConfig {
    /**
     * A poll route (job status): the session and its user may come from a few-seconds cache.
     * Logout and every revocation through SessionService still take effect at once.
     */
    cachedAuth?: boolean;
  }
}

/** Whether the matched route accepts a briefly cached session and user (see `cachedAuth`). */
export function usesCachedAuth(request: FastifyRequest): boolean {
  return request.routeOptions.config?.cachedAuth === true;
}

export interface SessionCookieOptions {
  secure: boolean;
  maxAgeSeconds: number;
}

export function setSessionCookie(reply: FastifyReply, rawId: string, opts: SessionCookieOptions): void {
  reply.setCookie(SESSION_COOKIE, rawId, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: opts.secure,
    maxAge: opts.maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure });
}

/** Resolves the session cookie on every /api request into `request.session`. */
export function installSessions(app: FastifyInstance, sessions: SessionService): void {
  app.decorateRequest('session', null);
  // A callback hook: no cookie, or a poll route's cached session, costs no promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.url.startsWith('/api/') && !request.url.startsWith('/results/')) return done();
    const raw = request.cookies[SESSION_COOKIE];
    // A bearer request is authenticated by its token alone (accounts/bearer-auth.ts), never by a cookie.
    if (!raw || hasBearer(request.headers)) return done();
    const cached = usesCachedAuth(request);
    const now = cached ? sessions.resolveCachedNow(raw) : undefined;
    if (now) {
      request.session = now;
      return done();
    }
    sessions.resolve(raw, { cached }).then((session) => {
      request.session = session;
      done();
    }, done);
  });
}

/**
 * Returns the caller's session, creating an anonymous one (and its cookie) when there is none.
 * Anonymous sessions own the jobs of visitors who have not signed in.
 */
export async function ensureSession(
  request: FastifyRequest,
  reply: FastifyReply,
  sessions: SessionService,
  cookie: SessionCookieOptions,
): Promise<Session> {
  if (request.session) return request.session;
  if (request.apiToken) throw new Error('ensureSession: a bearer request has no session; use ownerForWrite');
  const { rawId, session } = await sessions.create(null);
  setSessionCookie(reply, rawId, cookie);
  request.session = session;
  return session;
}
