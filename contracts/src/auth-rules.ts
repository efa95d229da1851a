// Plain constants (no zod), so a page that needs only the rules and texts does not load the schemas.
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
