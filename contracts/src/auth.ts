import { z } from 'zod';

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

/** POST /api/auth/login */
export const LoginRequest = z.object({ email: z.string(), password: z.string() });
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

/** POST /api/auth/register: the registration itself. The email is trimmed and lower-cased. */
export const RegisterRequest = z.object({
  name: z.string(),
  email: z.string(),
  username: z.string(),
  password: z.string(),
  acceptedTerms: z.boolean(),
  plan: z.string().optional(),
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;
export const RegisterResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  user: AuthUser.optional(),
  suggestions: z.array(z.string()).optional(),
});
export type RegisterResponse = z.infer<typeof RegisterResponse>;
