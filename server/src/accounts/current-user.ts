import type { FastifyInstance, FastifyRequest } from 'fastify';
import { usesCachedAuth } from '../sessions/session-plugin.ts';
import { SESSION_CACHE_TTL_MS, type Session, type SessionService } from '../sessions/session-service.ts';
import { type CurrentUser, toCurrentUser, type UserRow, type UserStore } from './user-store.ts';

const USER_CACHE_MAX = 20_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in, active user of this request, or null. Read it through requireUser/requireAdmin. */
    user: CurrentUser | null;
  }
}

/** What poll routes may reuse without a query: whether a user was read as active in the last few seconds. */
export interface CachedUsers {
  isCachedActive(userId: string): boolean;
}

/**
 * Loads the user of a signed-in session on every request that has one (after the session hook).
 * A session whose user was deleted or disabled is ended on the spot.
 */
export function installCurrentUser(
  app: FastifyInstance,
  users: UserStore,
  sessions: SessionService,
): CachedUsers {
  // Poll routes (`cachedAuth`) reuse a user read in the last few seconds; other routes always read.
  const cache = new Map<string, { user: CurrentUser; until: number }>();
  const findUser = async (id: string): Promise<UserRow | null> => {
    const row = await users.findById(id);
    if (cache.size >= USER_CACHE_MAX) cache.clear();
    if (row?.status === 'active')
      cache.set(id, { user: toCurrentUser(row), until: Date.now() + SESSION_CACHE_TTL_MS });
    else cache.delete(id);
    return row;
  };
  const load = async (request: FastifyRequest, session: Session & { userId: string }) => {
    const row = await findUser(session.userId);
    if (row && row.status === 'active') {
      request.user = toCurrentUser(row);
      return;
    }
    await sessions.destroy(session.idHash);
    request.session = null;
  };
  app.decorateRequest('user', null);
  // A callback hook: no session, or a poll route's cached user, costs no promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const session = request.session;
    if (!session?.userId) return done();
    if (usesCachedAuth(request)) {
      const hit = cache.get(session.userId);
      if (hit && hit.until > Date.now()) {
        request.user = { ...hit.user };
        return done();
      }
    }
    load(request, session as Session & { userId: string }).then(() => done(), done);
  });
  return {
    isCachedActive: (userId) => {
      const hit = cache.get(userId);
      return hit !== undefined && hit.until > Date.now();
    },
  };
}
