import type { FastifyRequest } from 'fastify';
import { requireUser } from '../accounts/guards.ts';
import type { Caller } from './debug-service.ts';

/** The signed-in caller of a compute/debug route (401 otherwise); administrators see global data. */
export function requireCaller(request: FastifyRequest): Caller {
  const user = requireUser(request);
  return { userId: user.id, isAdmin: user.role === 'admin' };
}
