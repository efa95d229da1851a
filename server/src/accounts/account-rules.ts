import {
  AUTH_MESSAGES,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from '@fieldline/contracts';
import { COMMON_PASSWORDS } from './common-passwords.ts';

/** null when the username follows the rules of spec 000 §5, else the message that says why not. */
export function usernameProblem(username: string): string | null {
  if (username.length < USERNAME_MIN_LENGTH) return AUTH_MESSAGES.usernameTooShort;
  if (username.length > USERNAME_MAX_LENGTH) return AUTH_MESSAGES.usernameTooLong;
  if (!USERNAME_PATTERN.test(username)) return AUTH_MESSAGES.usernameCharacters;
  return null;
}

/** Usernames are unique regardless of case. */
export const usernameKey = (username: string) => username.toLowerCase();

/** Length rules (≥ 8, long passphrases accepted, no composition rules) and a common-password list. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return AUTH_MESSAGES.passwordTooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return AUTH_MESSAGES.passwordTooLong;
  if (COMMON_PASSWORDS.has(password.toLowerCase())) return AUTH_MESSAGES.passwordTooCommon;
  return null;
}

export function nameProblem(name: string): string | null {
  if (name.trim().length === 0) return AUTH_MESSAGES.nameRequired;
  if (name.trim().length > NAME_MAX_LENGTH) return AUTH_MESSAGES.nameTooLong;
  return null;
}

/**
 * Candidate usernames close to the one asked for. They are built from the requested name alone
 * (never from emails or other users' data); the caller keeps the ones that are free.
 */
export function usernameCandidates(requested: string, random: () => number = Math.random): string[] {
  let base = requested
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9_-]/g, '')
    .slice(0, USERNAME_MAX_LENGTH - 4);
  if (base.length < USERNAME_MIN_LENGTH) base = `${base}user`.slice(0, USERNAME_MAX_LENGTH - 4);
  const digits = (n: number) => String(Math.floor(random() * 10 ** n)).padStart(n, '0');
  const out = new Set<string>();
  if (base !== requested && !usernameProblem(base)) out.add(base);
  for (const candidate of [
    `${base}${digits(2)}`,
    `${base}_${digits(3)}`,
    `${base}-${digits(2)}`,
    `${base}${digits(4)}`,
    `${base}_${digits(2)}`,
    `${base}${digits(3)}`,
  ]) {
    if (!usernameProblem(candidate)) out.add(candidate);
  }
  return [...out];
}
