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
