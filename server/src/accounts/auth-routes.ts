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
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../http/errors.ts';
import type { Route } from '../http/route.ts';
import {
  clearSessionCookie,
  type SessionCookieOptions,
  setSessionCookie,
} from '../sessions/session-plugin.ts';
import type { AccountService, Caller } from './account-service.ts';
import { toAuthUser } from './user-store.ts';

const callerOf = (request: FastifyRequest): Caller => ({ ip: request.ip, session: request.session });

/** A body that does not fit the contract: 400 in the shape the caller reads (spec 000 §7). */
const refuse = (message: string, extra: Record<string, unknown>) => () =>
  new HttpError(400, 'invalid_request', message, extra);

/** A username check (`validate_only: true`) or a registration; the check is tried first. */
const RegisterOrCheck = z.union([UsernameCheckRequest, RegisterRequest]);

/** Spec 000 §7 auth calls. Routes parse, call AccountService, set or clear the cookie. */
export function registerAuthRoutes(
  route: Route,
  { accounts, sessionCookie }: { accounts: AccountService; sessionCookie: SessionCookieOptions },
): void {
  const signIn = (reply: FastifyReply, rawSessionId: string) =>
    setSessionCookie(reply, rawSessionId, sessionCookie);

  route({
    method: 'get',
    path: '/api/auth/check',
    summary: 'Who is signed in',
    tag: 'auth',
    response: AuthCheckResponse,
    handler: async (_input, request, reply): Promise<AuthCheckResponse> => {
      reply.header('cache-control', 'no-store');
      return request.user
        ? { authenticated: true, user: toAuthUser(request.user) }
        : { authenticated: false, user: null };
    },
  });

  route({
    method: 'post',
    path: '/api/auth/login',
    summary: 'Log in (rotates the session id)',
    tag: 'auth',
    body: LoginRequest,
    invalid: refuse(AUTH_MESSAGES.loginMissing, { success: false }),
    response: LoginResponse,
    handler: async ({ body }, request, reply): Promise<LoginResponse> => {
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
    },
  });

  route({
    method: 'post',
    path: '/api/auth/logout',
    summary: 'Log out (deletes the session)',
    tag: 'auth',
    response: LogoutResponse,
    handler: async (_input, request, reply) => {
      await accounts.logout(request.session);
      clearSessionCookie(reply, sessionCookie.secure);
      return { success: true, message: AUTH_MESSAGES.loggedOut };
    },
  });

  route({
    method: 'post',
    path: '/api/validate-email',
    summary: 'Check an email address (format, domain, disposable providers)',
    tag: 'auth',
    body: ValidateEmailRequest,
    invalid: refuse(AUTH_MESSAGES.emailFormat, { is_valid: false }),
    response: ValidateEmailResponse,
    handler: ({ body }, request): Promise<ValidateEmailResponse> =>
      accounts.validateEmail(callerOf(request), body.email),
  });

  route({
    method: 'post',
    path: '/api/auth/register',
    summary: 'Register; with validate_only, check a username',
    tag: 'auth',
    body: RegisterOrCheck,
    invalid: (_part, _error, request) => {
      const raw = request.body as { validate_only?: unknown } | null;
      return raw && typeof raw === 'object' && raw.validate_only === true
        ? refuse(AUTH_MESSAGES.usernameInvalid, { isValid: false, suggestions: [] })()
        : refuse(AUTH_MESSAGES.registrationFailed, { success: false, suggestions: [] })();
    },
    response: RegisterResponse.or(UsernameCheckResponse),
    successStatus: [200, 201], // 201 for a registration, 200 for a username check
    handler: async ({ body }, request, reply) => {
      if ('validate_only' in body) return accounts.checkUsername(callerOf(request), body.username);
      const { user, rawSessionId } = await accounts.registerUser(callerOf(request), body);
      signIn(reply, rawSessionId);
      request.log.info({ event: 'register', userId: user.id }, 'user registered');
      reply.status(201);
      return {
        success: true,
        message: AUTH_MESSAGES.registrationSucceeded,
        user: toAuthUser(user),
      } satisfies RegisterResponse;
    },
  });
}
