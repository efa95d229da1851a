import { z } from 'zod';

import {
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PLAN_ID_PATTERN,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from './auth-rules.ts';

export * from './auth-rules.ts';

/** The signed-in user as the API shows it (spec 000 §3: name, email, plan, status). */
export const AuthUser = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  username: z.string(),
  plan: z.string(),
  status: z.string(),
  role: z.enum(['user', 'admin']),
});
export type AuthUser = z.infer<typeof AuthUser>;

/** GET /api/auth/check */
export const AuthCheckResponse = z.object({ authenticated: z.boolean(), user: AuthUser.nullable() });
export type AuthCheckResponse = z.infer<typeof AuthCheckResponse>;

/**
 * POST /api/auth/login. Empty fields are refused with the spec's text (AUTH_MESSAGES.loginMissing);
 * `\\S` documents in /api/docs that a blank email is refused too (the service trims it).
 */
export const LoginRequest = z.object({
  email: z.string().min(1).meta({ pattern: '\\S' }),
  password: z.string().min(1),
});
export type LoginRequest = z.infer<typeof LoginRequest>;
export const LoginResponse = z.object({
  success: z.boolean(),
  user: AuthUser.optional(),
  message: z.string(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

/** POST /api/auth/logout */
export const LogoutResponse = z.object({ success: z.boolean(), message: z.string() });

/** POST /api/validate-email */
export const ValidateEmailRequest = z.object({ email: z.string() });
export const ValidateEmailResponse = z.object({ is_valid: z.boolean(), message: z.string() });
export type ValidateEmailResponse = z.infer<typeof ValidateEmailResponse>;

/** POST /api/auth/register with validate_only: the username availability check. */
export const UsernameCheckRequest = z.object({ username: z.string(), validate_only: z.literal(true) });
export const UsernameCheckResponse = z.object({
  isValid: z.boolean(),
  message: z.string(),
  suggestions: z.array(z.string()),
});
export type UsernameCheckResponse = z.infer<typeof UsernameCheckResponse>;

/**
 * POST /api/auth/register: the registration itself. The email is trimmed and lower-cased.
 * The account rules are checked by the service, which answers each with its spec 000 §5 text; the
 * `meta` constraints only document them in /api/docs (a zod check here would answer a generic text).
 * Not expressible there: reserved or disposable mail domains and common passwords are refused too.
 */
export const RegisterRequest = z.object({
  name: z.string().meta({ pattern: `^\\s*\\S[\\s\\S]{0,${NAME_MAX_LENGTH - 1}}$` }),
  email: z.string().meta({ format: 'email' }),
  username: z
    .string()
    .meta({ pattern: `^\\s*[A-Za-z0-9_-]{${USERNAME_MIN_LENGTH},${USERNAME_MAX_LENGTH}}\\s*$` }),
  password: z.string().meta({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }),
  acceptedTerms: z.boolean().meta({ const: true }),
  plan: z.string().optional().meta({ pattern: PLAN_ID_PATTERN.source }),
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;
export const RegisterResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  user: AuthUser.optional(),
  suggestions: z.array(z.string()).optional(),
});
export type RegisterResponse = z.infer<typeof RegisterResponse>;
