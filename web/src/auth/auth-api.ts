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

/** Calls of spec 000 §7 that the auth screens make. Cookies ride along (`credentials: 'include'`). */

const JSON_HEADERS = { 'content-type': 'application/json' };

async function readJson<T>(res: Response): Promise<Partial<T>> {
  try {
    return (await res.json()) as Partial<T>;
  } catch {
    return {};
  }
}

/** GET /api/auth/check: any failure (non-OK, network, bad JSON) reads as signed out. */
export async function fetchAuthCheck(): Promise<AuthUser | null> {
  try {
    const res = await fetch('/api/auth/check', { credentials: 'include' });
    if (!res.ok) {
      // Spec 000 §8: auth check errors are logged; the visitor is treated as signed out.
      console.error('auth check failed', res.status);
      return null;
    }
    const body = (await res.json()) as AuthCheckResponse;
    return body.authenticated && body.user ? body.user : null;
  } catch (err) {
    console.error('auth check failed', err);
    return null;
  }
}

export type LoginOutcome = { success: true; user: AuthUser } | { success: false; message: string };

/** POST /api/auth/login: success only when the response is OK and says success (spec 000 §5). */
export async function postLogin(email: string, password: string): Promise<LoginOutcome> {
  let res: Response;
  try {
    res = await fetch('/api/auth/login', {
      method: 'POST',
      credentials: 'include',
      headers: JSON_HEADERS,
      body: JSON.stringify({ email, password }),
    });
  } catch {
    return { success: false, message: AUTH_MESSAGES.networkError };
  }
  try {
    const body = await readJson<LoginResponse>(res);
    if (res.ok && body.success === true && body.user) return { success: true, user: body.user };
    return { success: false, message: body.message || AUTH_MESSAGES.loginFailed };
  } catch {
    return { success: false, message: AUTH_MESSAGES.loginError };
  }
}

/** POST /api/auth/logout; the answer is ignored. */
export async function postLogout(): Promise<void> {
  await fetch('/api/auth/logout', { method: 'POST', credentials: 'include' });
}

export type EmailCheck =
  | { ok: true; body: ValidateEmailResponse }
  | { ok: false; status: number; message?: string };

/** POST /api/validate-email */
export async function postValidateEmail(email: string, signal?: AbortSignal): Promise<EmailCheck> {
  const res = await fetch('/api/validate-email', {
    method: 'POST',
    credentials: 'include',
    headers: JSON_HEADERS,
    body: JSON.stringify({ email }),
    signal,
  });
  const body = await readJson<ValidateEmailResponse>(res);
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
  const res = await fetch('/api/auth/register', {
    method: 'POST',
    credentials: 'include',
    headers: JSON_HEADERS,
    body: JSON.stringify({ username, validate_only: true }),
    signal,
  });
  const body = await readJson<UsernameCheckResponse>(res);
  if (typeof body.isValid !== 'boolean') throw new Error(`username check failed (${res.status})`);
  return { isValid: body.isValid, message: body.message ?? '', suggestions: body.suggestions ?? [] };
}

export type RegisterOutcome = { ok: true } | { ok: false; message: string; suggestions: string[] };

/** POST /api/auth/register: the registration itself. Throws on network failure. */
export async function postRegister(payload: RegisterRequest): Promise<RegisterOutcome> {
  const res = await fetch('/api/auth/register', {
    method: 'POST',
    credentials: 'include',
    headers: JSON_HEADERS,
    body: JSON.stringify(payload),
  });
  const body = await readJson<RegisterResponse>(res);
  if (res.ok && body.success === true) return { ok: true };
  return {
    ok: false,
    message: body.message || AUTH_MESSAGES.registrationFailed,
    suggestions: body.suggestions ?? [],
  };
}
