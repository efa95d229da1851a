import {
  AUTH_MESSAGES,
  DEFAULT_PLAN,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from '@fieldline/contracts';

/** Form rules of spec 000 §5, shared by the register page and its tests. */

/** A plain email format check; the server's /api/validate-email does the real one. */
const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export const EMAIL_CHECK_DEBOUNCE_MS = 500;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isEmailFormat(email: string): boolean {
  return EMAIL_FORMAT.test(normalizeEmail(email));
}

/** null when the username may be sent for the availability check, else why not. */
export function usernameRuleMessage(username: string): string | null {
  if (username.length < USERNAME_MIN_LENGTH) return AUTH_MESSAGES.usernameTooShort;
  if (username.length > USERNAME_MAX_LENGTH) return AUTH_MESSAGES.usernameTooLong;
  if (!USERNAME_PATTERN.test(username)) return AUTH_MESSAGES.usernameCharacters;
  return null;
}

export function passwordRuleMessage(password: string): string | null {
  return password.length < PASSWORD_MIN_LENGTH ? AUTH_MESSAGES.passwordTooShort : null;
}

export interface RegisterForm {
  name: string;
  email: string;
  username: string;
  password: string;
  confirmPassword: string;
  acceptedTerms: boolean;
}

/** What the server checks said: the email passed /api/validate-email, the username is available. */
export interface RemoteChecks {
  emailValid: boolean;
  usernameValid: boolean;
}

/** Submit stays disabled until the terms are accepted and the email and username are valid. */
export function canSubmitRegistration(form: RegisterForm, checks: RemoteChecks, busy = false): boolean {
  return !busy && form.acceptedTerms && checks.emailValid && checks.usernameValid;
}

/** The first problem that blocks sending the form, in the order the fields appear; null when none. */
export function registrationProblem(form: RegisterForm, checks: RemoteChecks): string | null {
  if (form.name.trim().length === 0) return AUTH_MESSAGES.nameRequired;
  if (!isEmailFormat(form.email)) return AUTH_MESSAGES.emailFormat;
  if (!checks.emailValid) return AUTH_MESSAGES.emailRejected;
  if (!checks.usernameValid || usernameRuleMessage(form.username)) return AUTH_MESSAGES.usernameInvalid;
  const password = passwordRuleMessage(form.password);
  if (password) return password;
  if (form.password !== form.confirmPassword) return AUTH_MESSAGES.passwordsDiffer;
  if (!form.acceptedTerms) return AUTH_MESSAGES.termsRequired;
  return null;
}

/** The plan from the query (default 'token'), and how the banner names it ('single' → 'Single'). */
export function planFromQuery(value: string | null): string {
  const plan = (value ?? '').trim().toLowerCase();
  return /^[a-z0-9_-]{1,32}$/.test(plan) ? plan : DEFAULT_PLAN;
}

export function planDisplayName(plan: string): string {
  return plan
    .split(/[-_]/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join(' ');
}
