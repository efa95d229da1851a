import { type FetchLike, request } from '../../api/http.ts';

/**
 * Is someone signed in? GET /api/auth/check (spec 000 §7). A server without the accounts module
 * (404) runs analyses for anyone, so that counts as allowed; any other failure counts as a guest.
 */
export async function isSignedIn(doFetch?: FetchLike): Promise<boolean> {
  try {
    const res = await request('/api/auth/check', {
      credentials: 'include',
      cache: 'no-store',
      fetch: doFetch,
    });
    if (res.status === 404) return true;
    return res.ok && res.body.authenticated === true;
  } catch {
    return false;
  }
}

export const ENVIRONMENT_PATH = '/environment';
