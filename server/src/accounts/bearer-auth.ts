import { API_TOKEN_MESSAGES } from '@fieldline/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.ts';
import { scopeAllows, tokenScopeFor } from './api-token-policy.ts';
import type { ApiTokenService, AuthenticatedToken } from './api-token-service.ts';
import { waitPhrase } from './auth-limits.ts';
import { bearerCredentials } from './bearer-header.ts';
import type { Limit, RateLimiter } from './rate-limiter.ts';
import { toCurrentUser, type UserStore } from './user-store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API token that authenticated this request (`Authorization: Bearer fl_…`), or null. */
    apiToken: AuthenticatedToken | null;
  }
}

export interface BearerLimits {
  /** Requests per minute one token may make. */
  perToken: number;
  /** Requests per minute bearer requests from one IP may make (whatever the token, valid or not). */
  perIp: number;
}

export interface BearerAuthDeps {
  tokens: ApiTokenService;
  users: UserStore;
  limiter: RateLimiter;
  limits: BearerLimits;
}

const invalidToken = () =>
  new HttpError(
    401,
    'invalid_token',
    API_TOKEN_MESSAGES.invalid,
    {},
    {
      'www-authenticate': 'Bearer error="invalid_token"',
    },
  );

const minute = (max: number): Limit => ({ max, windowSeconds: 60 });

/**
 * Authenticates `Authorization: Bearer fl_…` requests (after the session hooks, which skip their
 * cookies). The route must accept tokens (api-token-policy.ts) with the token's scope; the token must be
 * live (not revoked, not expired) and its user active — checked on every request, so a revoked token
 * is refused at once, including for polls of the jobs it submitted. Bearer requests are rate-limited
 * per IP (before the token is looked up) and per token.
 */
export function installBearerAuth(app: FastifyInstance, deps: BearerAuthDeps): void {
  app.decorateRequest('apiToken', null);
  app.addHook('onRequest', (request, _reply, done) => {
    const secret = bearerCredentials(request.headers);
    if (secret === undefined) return done();
    authenticate(request, secret).then(() => done(), done);
  });

  async function authenticate(request: FastifyRequest, secret: string): Promise<void> {
    const pattern = request.routeOptions.url;
    if (pattern === undefined) return; // no such route: its 404 or 405 says so
    const needs = tokenScopeFor(request.method, pattern);
    if (needs === null) throw new HttpError(403, 'token_not_accepted', API_TOKEN_MESSAGES.notAccepted);
    await throttle([[`bearer-ip:${request.ip}`, minute(deps.limits.perIp)]], 'from this address');
    const token = await deps.tokens.authenticate(secret);
    if (!token) throw invalidToken();
    await throttle([[`bearer-token:${token.id}`, minute(deps.limits.perToken)]], 'with this API token');
    const user = await deps.users.findById(token.userId);
    if (user?.status !== 'active') throw invalidToken();
    if (!scopeAllows(token.scope, needs)) {
      throw new HttpError(
        403,
        'insufficient_scope',
        API_TOKEN_MESSAGES.readOnly,
        {},
        {
          'www-authenticate': 'Bearer error="insufficient_scope", scope="run"',
        },
      );
    }
    request.apiToken = token;
    request.user = toCurrentUser(user);
  }

  async function throttle(keys: Array<[string, Limit]>, what: string): Promise<void> {
    const decision = await deps.limiter.hitAll(keys.map(([key, limit]) => ({ key, limit })));
    if (decision.allowed) return;
    throw new HttpError(
      429,
      'rate_limited',
      `Too many API requests ${what}. Please try again ${waitPhrase(decision.retryAfterSeconds)}.`,
      {},
      { 'retry-after': String(decision.retryAfterSeconds) },
    );
  }
}
