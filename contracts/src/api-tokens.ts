import { z } from 'zod';

/**
 * Personal API tokens (issue 38, docs/api.md): named, scoped, optionally expiring secrets a script or
 * the Python client sends as `Authorization: Bearer fl_…`. The secret is shown once, in the reply to
 * POST /api/user/tokens; the server keeps only a keyed hash of it.
 */

/** `read`: look at jobs, results, uploads, materials and usage. `run`: also upload, submit, cancel and spend. */
export const API_TOKEN_SCOPES = ['read', 'run'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** Every secret starts with this, so scanners and users recognise a leaked Fieldline token. */
export const API_TOKEN_PREFIX = 'fl_';
export const API_TOKEN_MAX_EXPIRY_DAYS = 365;
export const API_TOKEN_NAME_MAX = 100;

export const API_TOKEN_MESSAGES = {
  invalid: 'The API token is invalid, revoked or expired. Create a new one on the dashboard.',
  notAccepted:
    'API tokens are not accepted on this route; it needs a signed-in browser session (sign in on the website).',
  readOnly:
    'This API token has the read scope; submitting, cancelling and spending need a token with the run scope.',
  notFound: 'API token not found',
  malformed: 'The Authorization header must be "Bearer fl_…" with a Fieldline API token.',
} as const;

export const CreateApiTokenRequest = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the token a name')
    .max(API_TOKEN_NAME_MAX, `A token name has at most ${API_TOKEN_NAME_MAX} characters`)
    .meta({ description: 'What the token is for, e.g. "nightly regression"' }),
  scope: z.enum(API_TOKEN_SCOPES),
  expires_in_days: z
    .number()
    .int('expires_in_days must be a whole number of days')
    .min(1, 'A token expires after 1 to 365 days, or never (leave expires_in_days out)')
    .max(
      API_TOKEN_MAX_EXPIRY_DAYS,
      'A token expires after 1 to 365 days, or never (leave expires_in_days out)',
    )
    .nullable()
    .optional()
    .meta({ description: 'Days until the token stops working (1–365); absent or null: it never expires' }),
});
export type CreateApiTokenRequest = z.infer<typeof CreateApiTokenRequest>;

/** A token as listed: never the secret. */
export const ApiToken = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

/** 201 reply of POST /api/user/tokens: the only reply that carries the secret. */
export const CreateApiTokenResponse = z.object({
  id: z.string(),
  token: z
    .string()
    .startsWith(API_TOKEN_PREFIX)
    .meta({ description: 'The secret; shown only in this reply' }),
  name: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  created_at: z.string(),
  expires_at: z.string().nullable(),
});
export type CreateApiTokenResponse = z.infer<typeof CreateApiTokenResponse>;

export const ApiTokenListResponse = z.object({ tokens: z.array(ApiToken) });
export type ApiTokenListResponse = z.infer<typeof ApiTokenListResponse>;

export const RevokeApiTokenResponse = z.object({ id: z.string(), revoked: z.literal(true) });
export type RevokeApiTokenResponse = z.infer<typeof RevokeApiTokenResponse>;
