import type { Limit } from './rate-limiter.ts';

/**
 * Rate limits of the auth endpoints, per client IP and per account (the email or username a request
 * names). The per-account login count is cleared by a successful login, so a user who types the
 * password right is never locked out by their own earlier typos; an attacker gets 10 guesses per
 * account per 15 minutes, whatever the number of IPs.
 */
export const AUTH_LIMITS = {
  loginPerIp: { max: 50, windowSeconds: 15 * 60 },
  loginPerAccount: { max: 10, windowSeconds: 15 * 60 },
  registerPerIp: { max: 10, windowSeconds: 60 * 60 },
  registerPerAccount: { max: 5, windowSeconds: 60 * 60 },
  emailCheckPerIp: { max: 60, windowSeconds: 10 * 60 },
  emailCheckPerAccount: { max: 30, windowSeconds: 10 * 60 },
  usernameCheckPerIp: { max: 60, windowSeconds: 10 * 60 },
  usernameCheckPerAccount: { max: 30, windowSeconds: 10 * 60 },
} satisfies Record<string, Limit>;

export type AuthLimits = typeof AUTH_LIMITS;

/** "in 15 minutes", "in 40 seconds": how long a throttled caller waits. */
export function waitPhrase(seconds: number): string {
  if (seconds < 60) return `in ${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}
