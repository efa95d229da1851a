import { z } from 'zod';

/** Account rules shared by the register form and the server (spec 000 §5). */
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]{3,20}$/;
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 20;
export const PASSWORD_MIN_LENGTH = 8;
/** Long passphrases are welcome; the cap only bounds hashing work. */
export const PASSWORD_MAX_LENGTH = 1024;
export const NAME_MAX_LENGTH = 100;
export const DEFAULT_PLAN = 'token';
export const PLAN_ID_PATTERN = /^[a-z0-9_-]{1,32}$/;

/** User-facing texts of spec 000 §5 and §8 (exact), plus the server's own where the spec has none. */
export const AUTH_MESSAGES = {
  emailFormat: 'Please enter a valid email address',
  emailServerError: 'Could not validate email - server error',
  emailRejected: 'Please use a valid email address',
  usernameTooShort: 'Username must be at least 3 characters long',
  usernameTooLong: 'Username must be at most 20 characters long',
  usernameCharacters: 'Username can only contain letters, numbers, underscores and hyphens',
  usernameInvalid: 'Please choose a valid username',
  usernameTaken: 'Username is already taken',
  usernameAvailable: 'Username is available',
  passwordTooShort: 'Password must be at least 8 characters long',
  passwordTooLong: 'Password must be at most 1024 characters long',
  passwordTooCommon: 'This password is too common. Please choose a less guessable one',
  passwordsDiffer: 'Passwords do not match',
  termsRequired: 'You must accept the Terms and Conditions to register',
  nameRequired: 'Please enter your full name',
  nameTooLong: 'Name must be at most 100 characters long',
  planUnknown: 'Unknown plan',
  registrationFailed: 'Registration failed',
  registrationError: 'An error occurred during registration',
  registrationSucceeded: 'Registration successful',
  registrationLoginFailed: 'Registration successful! Please log in.',
  loginFailed: 'Login failed',
  loginError: 'An error occurred during login',
  loginInvalid: 'Invalid email or password',
  loginMissing: 'Email and password are required',
  loginSucceeded: 'Login successful',
  accountDisabled: 'This account is disabled. Please contact support.',
  networkError: 'Network error occurred',
  loggedOut: 'Logged out',
  unauthenticated: 'Please log in to continue',
  adminRequired: 'Administrator access required',
} as const;

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
