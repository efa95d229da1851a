import type { ApiToken, ApiTokenScope, CreateApiTokenResponse } from '@fieldline/contracts';
import { request } from '../../api/http.ts';

export type Outcome<T> = { ok: true; value: T } | { ok: false; message: string };

const failed = (status: number, body: Record<string, unknown>, fallback: string): Outcome<never> => ({
  ok: false,
  message: typeof body.message === 'string' ? body.message : `${fallback} (HTTP ${status})`,
});

/** GET /api/user/tokens: the user's live tokens (never their secrets). */
export async function listTokens(): Promise<Outcome<ApiToken[]>> {
  try {
    const res = await request('/api/user/tokens', { credentials: 'include' });
    if (!res.ok) return failed(res.status, res.body, 'Could not load your API tokens');
    return { ok: true, value: (res.body.tokens as ApiToken[]) ?? [] };
  } catch {
    return { ok: false, message: 'Could not load your API tokens: the server did not answer' };
  }
}

/** POST /api/user/tokens: the one reply that carries the secret. */
export async function createToken(input: {
  name: string;
  scope: ApiTokenScope;
  expires_in_days: number | null;
}): Promise<Outcome<CreateApiTokenResponse>> {
  try {
    const res = await request('/api/user/tokens', { method: 'POST', credentials: 'include', json: input });
    if (res.status !== 201) return failed(res.status, res.body, 'Could not create the token');
    return { ok: true, value: res.json as CreateApiTokenResponse };
  } catch {
    return { ok: false, message: 'Could not create the token: the server did not answer' };
  }
}

/** DELETE /api/user/tokens/{id}: refused from the next request on. */
export async function revokeToken(id: string): Promise<Outcome<true>> {
  try {
    const res = await request(`/api/user/tokens/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      credentials: 'include',
    });
    if (!res.ok) return failed(res.status, res.body, 'Could not revoke the token');
    return { ok: true, value: true };
  } catch {
    return { ok: false, message: 'Could not revoke the token: the server did not answer' };
  }
}
