import type { FastifyInstance } from 'fastify';
import { usesCachedAuth } from '../sessions/session-plugin.ts';
import { SESSION_CACHE_TTL_MS, type SessionService } from '../sessions/session-service.ts';
import { type CurrentUser, toCurrentUser, type UserRow, type UserStore } from './user-store.ts';

const USER_CACHE_MAX = 20_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in, active user of this request, or null. Read it through requireUser/requireAdmin. */
    user: CurrentUser | null;
  }
}

/**
 * Loads the user of a signed-in session on every request that has one (after the session hook).
 * A session whose user was deleted or disabled is ended on the spot.
 */
export function installCurrentUser(app: FastifyInstance, users: UserStore, sessions: SessionService): void {
  // Poll routes (`cachedAuth`) reuse a user row read in the last few seconds; other routes always read.
  const cache = new Map<string, { row: UserRow; until: number }>();
  const findUser = async (id: string, cached: boolean): Promise<UserRow | null> => {
    const t = Date.now();
    const hit = cached ? cache.get(id) : undefined;
    if (hit && hit.until > t) return hit.row;
    const row = await users.findById(id);
    if (cache.size >= USER_CACHE_MAX) cache.clear();
    if (row?.status === 'active') cache.set(id, { row, until: t + SESSION_CACHE_TTL_MS });
    else cache.delete(id);
    return row;
  };
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    const session = request.session;
    if (!session?.userId) return;
    const row = await findUser(session.userId, usesCachedAuth(request));
    if (row && row.status === 'active') {
      request.user = toCurrentUser(row);
      return;
    }
    await sessions.destroy(session.idHash);
    request.session = null;
  });
}
