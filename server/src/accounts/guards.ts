import { AUTH_MESSAGES } from '@fieldline/contracts';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.ts';
import type { CurrentUser } from './user-store.ts';

/**
 * The signed-in user, or a 401 `{error: 'unauthenticated', message}`. Use it first thing in every
 * route that needs an account:  `const user = requireUser(request);`
 */
export function requireUser(request: FastifyRequest): CurrentUser {
  if (!request.user) throw new HttpError(401, 'unauthenticated', AUTH_MESSAGES.unauthenticated);
  return request.user;
}

/** The signed-in admin; 401 without a session, 403 `{error: 'forbidden'}` for a signed-in non-admin. */
export function requireAdmin(request: FastifyRequest): CurrentUser {
  const user = requireUser(request);
  if (user.role !== 'admin') throw new HttpError(403, 'forbidden', AUTH_MESSAGES.adminRequired);
  return user;
}

/** The signed-in user or null, for routes open to guests that behave differently for users. */
export function currentUser(request: FastifyRequest): CurrentUser | null {
  return request.user;
}
