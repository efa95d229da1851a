import { defaultFetch, type FetchLike, isRecord } from '../api/http.ts';

/**
 * Is someone signed in? GET /api/auth/check (spec 000 §7). A server without the accounts module
 * (404) runs analyses for anyone, so that counts as allowed; any other failure counts as a guest.
 */
export async function isSignedIn(doFetch: FetchLike = defaultFetch): Promise<boolean> {
  try {
    const res = await doFetch('/api/auth/check', { credentials: 'include', cache: 'no-store' });
    if (res.status === 404) return true;
    if (!res.ok) return false;
    const json: unknown = await res.json();
    return isRecord(json) && json.authenticated === true;
  } catch {
    return false;
  }
}

export const ENVIRONMENT_PATH = '/environment';
