import {
  AUTH_MESSAGES,
  type AuthCheckResponse,
  type AuthUser,
  type LoginResponse,
  type RegisterRequest,
  type RegisterResponse,
  type UsernameCheckResponse,
  type ValidateEmailResponse,
} from '@fieldline/contracts';
import { request } from '../api/http.ts';

/** Calls of spec 000 §7 that the auth screens make. Cookies ride along (`credentials: 'include'`). */

/** GET /api/auth/check: any failure (non-OK, network, bad JSON) reads as signed out. */
export async function fetchAuthCheck(): Promise<AuthUser | null> {
  try {
    const res = await request('/api/auth/check', { credentials: 'include' });
    if (!res.ok || res.json === undefined) {
      // Spec 000 §8: auth check errors are logged; the visitor is treated as signed out.
      console.error('auth check failed', res.status);
      return null;
    }
    const body = res.body as Partial<AuthCheckResponse>;
    return body.authenticated && body.user ? body.user : null;
  } catch (err) {
    console.error('auth check failed', err);
    return null;
  }
}

export type LoginOutcome = { success: true; user: AuthUser } | { success: false; message: string };

/** POST /api/auth/login: success only when the response is OK and says success (spec 000 §5). */
export async function postLogin(email: string, password: string): Promise<LoginOutcome> {
  let res: Awaited<ReturnType<typeof request>>;
  try {
    res = await request('/api/auth/login', {
      method: 'POST',
      credentials: 'include',
      json: { email, password },
    });
  } catch {
    return { success: false, message: AUTH_MESSAGES.networkError };
  }
  const body = res.body as Partial<LoginResponse>;
  if (res.ok && body.success === true && body.user) return { success: true, user: body.user };
  return { success: false, message: body.message || AUTH_MESSAGES.loginFailed };
}

/** POST /api/auth/logout; the answer is ignored. */
export async function postLogout(): Promise<void> {
  await request('/api/auth/logout', { method: 'POST', credentials: 'include' });
}

export type EmailCheck =
  | { ok: true; body: ValidateEmailResponse }
  | { ok: false; status: number; message?: string };

/** POST /api/validate-email */
export async function postValidateEmail(email: string, signal?: AbortSignal): Promise<EmailCheck> {
  const res = await request('/api/validate-email', {
    method: 'POST',
    credentials: 'include',
    json: { email },
    signal,
  });
  const body = res.body as Partial<ValidateEmailResponse>;
  if (res.ok && typeof body.is_valid === 'boolean') {
    return { ok: true, body: { is_valid: body.is_valid, message: body.message ?? '' } };
  }
  return { ok: false, status: res.status, message: body.message };
}

/** POST /api/auth/register with validate_only: username availability. */
export async function postUsernameCheck(
  username: string,
  signal?: AbortSignal,
): Promise<UsernameCheckResponse> {
  const res = await request('/api/auth/register', {
    method: 'POST',
    credentials: 'include',
    json: { username, validate_only: true },
    signal,
  });
  const body = res.body as Partial<UsernameCheckResponse>;
  if (typeof body.isValid !== 'boolean') throw new Error(`username check failed (${res.status})`);
  return { isValid: body.isValid, message: body.message ?? '', suggestions: body.suggestions ?? [] };
}

export type RegisterOutcome = { ok: true } | { ok: false; message: string; suggestions: string[] };

/** POST /api/auth/register: the registration itself. Throws on network failure. */
export async function postRegister(payload: RegisterRequest): Promise<RegisterOutcome> {
  const res = await request('/api/auth/register', { method: 'POST', credentials: 'include', json: payload });
  const body = res.body as Partial<RegisterResponse>;
  if (res.ok && body.success === true) return { ok: true };
  return {
    ok: false,
    message: body.message || AUTH_MESSAGES.registrationFailed,
    suggestions: body.suggestions ?? [],
  };
}
