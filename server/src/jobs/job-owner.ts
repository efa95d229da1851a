import type { Db } from '../db/database.ts';
import type { Session } from '../sessions/session-service.ts';

/** Who owns a job: a signed-in user, or (before sign-in) an anonymous session. */
export interface JobOwner {
  userId: string | null;
  sessionHash: string | null;
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
