import type { FastifyInstance } from 'fastify';
import type { SessionService } from '../sessions/session-service.ts';
import { type CurrentUser, toCurrentUser, type UserStore } from './user-store.ts';

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
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    const session = request.session;
    if (!session?.userId) return;
    const row = await users.findById(session.userId);
    if (row && row.status === 'active') {
      request.user = toCurrentUser(row);
      return;
    }
    await sessions.destroy(session.idHash);
    request.session = null;
  });
}
