import {
  ApiTokenListResponse,
  CreateApiTokenRequest,
  CreateApiTokenResponse,
  RevokeApiTokenResponse,
} from '@fieldline/contracts';
import { z } from 'zod';
import { notFound } from '../http/errors.ts';
import type { Route } from '../http/route.ts';
import type { ApiTokenService } from './api-token-service.ts';
import { requireUser } from './guards.ts';

const TokenParams = z.object({ id: z.uuid() });

/**
 * Token management (issue 38): session only — a token cannot create, list or revoke tokens
 * (api-token-policy.ts refuses bearer requests here before `requireUser` runs).
 */
export function registerTokenRoutes(route: Route, tokens: ApiTokenService): void {
  route({
    method: 'post',
    path: '/api/user/tokens',
    summary: 'Create a personal API token (201; the secret is in this reply only)',
    tag: 'tokens',
    auth: requireUser,
    body: CreateApiTokenRequest,
    emptyBody: {},
    response: CreateApiTokenResponse,
    successStatus: 201,
    handler: async ({ auth: user, body }, _request, reply) => {
      const created = await tokens.create(user.id, body);
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  });

  route({
    method: 'get',
    path: '/api/user/tokens',
    summary: "The caller's live API tokens (never their secrets)",
    tag: 'tokens',
    auth: requireUser,
    response: ApiTokenListResponse,
    handler: async ({ auth: user }, _request, reply) => {
      reply.header('cache-control', 'no-store');
      return { tokens: await tokens.list(user.id) };
    },
  });

  route({
    method: 'delete',
    path: '/api/user/tokens/{id}',
    summary: 'Revoke an API token (it is refused from the next request on)',
    tag: 'tokens',
    auth: requireUser,
    params: TokenParams,
    invalid: () => notFound('API token not found'),
    response: RevokeApiTokenResponse,
    handler: async ({ auth: user, params }) => {
      await tokens.revoke(user.id, params.id);
      return { id: params.id, revoked: true as const };
    },
  });
}
