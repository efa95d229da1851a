import { createRequire } from 'node:module';

export interface EmailVerdict {
  isValid: boolean;
  message: string;
}

export const MAX_EMAIL_LENGTH = 254;

/** Trimmed and lower-cased: the one form an email is stored, compared and rate-limited in. */
export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

// Dot-atom local part (RFC 5322 without quoted strings or comments, which real mailboxes do not use).
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
// A DNS label: letters, digits, hyphens inside; 1–63 characters.
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
// A top-level domain: letters only, or an IDN in punycode.
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** Names that can never receive mail: RFC 2606 / RFC 6761 special-use names and common placeholders. */
const RESERVED_TLDS = new Set(['test', 'example', 'invalid', 'localhost', 'local', 'internal', 'onion']);
const RESERVED_DOMAINS = new Set([
  'example.com',
  'example.net',
  'example.org',
  'email.com.invalid',
  'domain.com',
  'test.com',
  'localhost.localdomain',
]);

let disposable: Set<string> | null = null;
/** The community-maintained list of throw-away mail providers (npm `disposable-email-domains`). */
function disposableDomains(): Set<string> {
  if (!disposable) {
    const require = createRequire(import.meta.url);
    disposable = new Set(require('disposable-email-domains') as string[]);
  }
  return disposable;
}

function isDisposable(domain: string): boolean {
  const list = disposableDomains();
  // Also catch sub-domains of a listed provider (x.mailinator.com).
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    if (list.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}

/**
 * Checks an email the way a mail server would, offline: syntax and length limits (RFC 5321),
 * a real-looking domain (no IP literals, no single-label hosts, a letter TLD), no special-use or
 * placeholder domains, and no disposable-mail providers. It never looks at our users, so its answer
 * is the same for an address that has an account and one that does not.
 */
export function checkEmail(raw: string): EmailVerdict {
  const email = normalizeEmail(raw);
  const invalid = (message: string): EmailVerdict => ({ isValid: false, message });
  if (email.length === 0) return invalid('Please enter an email address');
  if (email.length > MAX_EMAIL_LENGTH) return invalid('Email address is too long');
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1 || email.indexOf('@') !== at) {
    return invalid('Please enter a valid email address');
  }
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return invalid('Please enter a valid email address');
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || !TLD.test(labels.at(-1) ?? '')) {
    return invalid('This email domain cannot receive mail');
  }
  if (RESERVED_TLDS.has(labels.at(-1) ?? '') || RESERVED_DOMAINS.has(domain)) {
    return invalid('This email domain cannot receive mail');
  }
  if (isDisposable(domain)) return invalid('Disposable email addresses are not accepted');
  return { isValid: true, message: 'Email address is valid' };
}
