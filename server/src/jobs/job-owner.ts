import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { ensureSession, type SessionCookieOptions } from '../sessions/session-plugin.ts';
import type { Session, SessionService } from '../sessions/session-service.ts';

/** Who owns a job: a signed-in user, or (before sign-in) an anonymous session. */
export interface JobOwner {
  userId: string | null;
  sessionHash: string | null;
  /** The API token acting for the user (recorded on the jobs it submits); absent for a browser session. */
  apiToken?: { id: string; name: string } | null;
}

/** The owner the caller acts as: an API token's user, the session's user or the anonymous session; or null. */
export function ownerOfRequest(request: FastifyRequest): JobOwner | null {
  const token = request.apiToken;
  if (token) return { userId: token.userId, sessionHash: null, apiToken: { id: token.id, name: token.name } };
  return request.session ? ownerOf(request.session) : null;
}

/**
 * The owner of what a request creates (a job, an upload): an API token's user, or the session's owner,
 * starting an anonymous session (and its cookie) for a visitor who has none.
 */
export async function ownerForWrite(
  request: FastifyRequest,
  reply: FastifyReply,
  sessions: SessionService,
  cookie: SessionCookieOptions,
): Promise<JobOwner> {
  const byToken = request.apiToken ? ownerOfRequest(request) : null;
  if (byToken) return byToken;
  return ownerOf(await ensureSession(request, reply, sessions, cookie));
}

export function ownerOf(session: Session): JobOwner {
  return session.userId
    ? { userId: session.userId, sessionHash: null }
    : { userId: null, sessionHash: session.idHash };
}

/**
 * Hands the jobs an anonymous session created to the user who just signed in from it, so a guest's
 * uploaded or meshed model survives signing in. Called inside the login/registration transaction.
 */
export async function transferSessionJobs(db: Db, sessionHash: string, userId: string): Promise<number> {
  const result = await db
    .updateTable('jobs')
    .set({ owner_user_id: userId, owner_session_hash: null })
    .where('owner_session_hash', '=', sessionHash)
    .where('owner_user_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
