import {
  AUTH_MESSAGES,
  AuthCheckResponse,
  LoginRequest,
  LoginResponse,
  LogoutResponse,
  RegisterRequest,
  RegisterResponse,
  UsernameCheckRequest,
  UsernameCheckResponse,
  ValidateEmailRequest,
  ValidateEmailResponse,
} from '@fieldline/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { HttpError } from '../http/errors.ts';
import { clearSessionCookie, setSessionCookie } from '../sessions/session-plugin.ts';
import type { Caller } from './account-service.ts';
import { toAuthUser } from './user-store.ts';

const callerOf = (request: FastifyRequest): Caller => ({ ip: request.ip, session: request.session });

/** A body that does not fit the contract: 400 in the shape the caller reads (spec 000 §7). */
function parseBody<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  body: unknown,
  message: string,
  extra: Record<string, unknown>,
): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, 'invalid_request', message, extra);
  return parsed.data;
}

/** Spec 000 §7 auth calls. Routes parse, call AccountService, set or clear the cookie. */
export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const accounts = ctx.accounts;
  const api = ctx.api;
  const signIn = (reply: FastifyReply, rawSessionId: string) =>
    setSessionCookie(reply, rawSessionId, ctx.sessionCookie);

  api.add({
    method: 'get',
    path: '/api/auth/check',
    summary: 'Who is signed in',
    tag: 'auth',
    response: AuthCheckResponse,
  });
  app.get('/api/auth/check', async (request, reply): Promise<AuthCheckResponse> => {
    reply.header('cache-control', 'no-store');
    return request.user
      ? { authenticated: true, user: toAuthUser(request.user) }
      : { authenticated: false, user: null };
  });

  api.add({
    method: 'post',
    path: '/api/auth/login',
    summary: 'Log in (rotates the session id)',
    tag: 'auth',
    body: LoginRequest,
    response: LoginResponse,
  });
  app.post('/api/auth/login', async (request, reply): Promise<LoginResponse> => {
    const body = parseBody(LoginRequest, request.body, AUTH_MESSAGES.loginMissing, { success: false });
    const { user, rawSessionId } = await accounts
      .login(callerOf(request), body.email, body.password)
      .catch((err: unknown) => {
        // Security log: failures and lockouts, by IP; never the password, and no email (it may be a typo'd password).
        if (err instanceof HttpError)
          request.log.warn({ event: 'login_failed', reason: err.code, ip: request.ip });
        throw err;
      });
    signIn(reply, rawSessionId);
    request.log.info({ event: 'login', userId: user.id }, 'user logged in');
    return { success: true, user: toAuthUser(user), message: AUTH_MESSAGES.loginSucceeded };
  });

  api.add({
    method: 'post',
    path: '/api/auth/logout',
    summary: 'Log out (deletes the session)',
    tag: 'auth',
    response: LogoutResponse,
  });
  app.post('/api/auth/logout', async (request, reply) => {
    await accounts.logout(request.session);
    clearSessionCookie(reply, ctx.sessionCookie.secure);
    return { success: true, message: AUTH_MESSAGES.loggedOut };
  });

  api.add({
    method: 'post',
    path: '/api/validate-email',
    summary: 'Check an email address (format, domain, disposable providers)',
    tag: 'auth',
    body: ValidateEmailRequest,
    response: ValidateEmailResponse,
  });
  app.post('/api/validate-email', async (request): Promise<ValidateEmailResponse> => {
    const body = parseBody(ValidateEmailRequest, request.body, AUTH_MESSAGES.emailFormat, {
      is_valid: false,
    });
    return accounts.validateEmail(callerOf(request), body.email);
  });

  api.add({
    method: 'post',
    path: '/api/auth/register',
    summary: 'Register; with validate_only, check a username',
    tag: 'auth',
    body: RegisterRequest.or(UsernameCheckRequest),
    response: RegisterResponse.or(UsernameCheckResponse),
  });
  app.post('/api/auth/register', async (request, reply) => {
    const raw = request.body as { validate_only?: unknown } | null;
    if (raw && typeof raw === 'object' && raw.validate_only === true) {
      const body = parseBody(UsernameCheckRequest, raw, AUTH_MESSAGES.usernameInvalid, {
        isValid: false,
        suggestions: [],
      });
      return accounts.checkUsername(callerOf(request), body.username);
    }
    const body = parseBody(RegisterRequest, request.body, AUTH_MESSAGES.registrationFailed, {
      success: false,
      suggestions: [],
    });
    const { user, rawSessionId } = await accounts.registerUser(callerOf(request), body);
    signIn(reply, rawSessionId);
    request.log.info({ event: 'register', userId: user.id }, 'user registered');
    reply.status(201);
    return {
      success: true,
      message: AUTH_MESSAGES.registrationSucceeded,
      user: toAuthUser(user),
    } satisfies RegisterResponse;
  });
}
