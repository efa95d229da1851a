import type { AuthUser } from '@fieldline/contracts';
import { fetchAuthCheck } from './auth-api.ts';

let pending: Promise<AuthUser | null> | null = null;

/**
 * Sends the start-up auth check now. The entry calls it before React and the router are evaluated and
 * rendered, so the round-trip overlaps that work instead of starting after the first render: every
 * signed-in page (and the guard in front of it) waits on this answer before it can draw.
 */
export function startAuthCheck(): void {
  pending ??= fetchAuthCheck();
}

/** The answer of the check sent by `startAuthCheck` (once), or a fresh check when none was sent. */
export function takeStartupAuthCheck(): Promise<AuthUser | null> {
  const check = pending ?? fetchAuthCheck();
  pending = null;
  return check;
}
