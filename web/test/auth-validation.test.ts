import { describe, expect, it } from 'vitest';
import {
  canSubmitRegistration,
  isEmailFormat,
  normalizeEmail,
  passwordRuleMessage,
  planDisplayName,
  planFromQuery,
  type RegisterForm,
  registrationProblem,
  usernameRuleMessage,
} from '../src/auth/validation.ts';

const valid: RegisterForm = {
  name: 'Ada Lovelace',
  email: 'ada@analytical-engines.com',
  username: 'ada_l',
  password: 'correct horse',
  confirmPassword: 'correct horse',
  acceptedTerms: true,
};
const passed = { emailValid: true, usernameValid: true };

describe('email format', () => {
  it('accepts ordinary addresses, trimmed and in any case', () => {
    expect(isEmailFormat('ada@analytical-engines.com')).toBe(true);
    expect(isEmailFormat('  Ada.Lovelace+fea@Mail.CO.UK ')).toBe(true);
    expect(normalizeEmail('  Ada@Mail.COM ')).toBe('ada@mail.com');
  });
  it('refuses what is not an address', () => {
    for (const bad of [
      '',
      'ada',
      'ada@',
      '@mail.com',
      'ada@mail',
      'ada@mail.c',
      'a da@mail.com',
      'a@b@c.com',
    ]) {
      expect(isEmailFormat(bad)).toBe(false);
    }
  });
});

describe('username rules (letters, digits, _ and -, 3 to 20)', () => {
  it.each([
    ['ab', 'Username must be at least 3 characters long'],
    ['', 'Username must be at least 3 characters long'],
    ['a'.repeat(21), 'Username must be at most 20 characters long'],
    ['ada lovelace', 'Username can only contain letters, numbers, underscores and hyphens'],
    ['ada.l', 'Username can only contain letters, numbers, underscores and hyphens'],
    ['adä', 'Username can only contain letters, numbers, underscores and hyphens'],
  ])('%j → %s', (username, message) => {
    expect(usernameRuleMessage(username)).toBe(message);
  });
  it.each(['abc', 'Ada_Lovelace-1815', 'a'.repeat(20)])('%j is fine', (username) => {
    expect(usernameRuleMessage(username)).toBeNull();
  });
});

describe('password rule', () => {
  it('needs at least 8 characters and takes long ones', () => {
    expect(passwordRuleMessage('1234567')).toBe('Password must be at least 8 characters long');
    expect(passwordRuleMessage('12345678')).toBeNull();
    expect(passwordRuleMessage('x'.repeat(200))).toBeNull();
  });
});

describe('register submit button', () => {
  it('is enabled only with the terms accepted and a valid email and username', () => {
    expect(canSubmitRegistration(valid, passed)).toBe(true);
    expect(canSubmitRegistration({ ...valid, acceptedTerms: false }, passed)).toBe(false);
    expect(canSubmitRegistration(valid, { ...passed, emailValid: false })).toBe(false);
    expect(canSubmitRegistration(valid, { ...passed, usernameValid: false })).toBe(false);
    expect(canSubmitRegistration(valid, passed, true)).toBe(false);
  });
});

describe('registration problems, in field order, with the spec texts', () => {
  it.each<[Partial<RegisterForm>, Partial<typeof passed>, string]>([
    [{ name: ' ' }, {}, 'Please enter your full name'],
    [{ email: 'nope' }, {}, 'Please enter a valid email address'],
    [{}, { emailValid: false }, 'Please use a valid email address'],
    [{}, { usernameValid: false }, 'Please choose a valid username'],
    [{ username: 'a b' }, {}, 'Please choose a valid username'],
    [{ password: 'short', confirmPassword: 'short' }, {}, 'Password must be at least 8 characters long'],
    [{ confirmPassword: 'something else' }, {}, 'Passwords do not match'],
    [{ acceptedTerms: false }, {}, 'You must accept the Terms and Conditions to register'],
  ])('%j %j → %s', (form, checks, message) => {
    expect(registrationProblem({ ...valid, ...form }, { ...passed, ...checks })).toBe(message);
  });
  it('none for a complete form', () => {
    expect(registrationProblem(valid, passed)).toBeNull();
  });
});

describe('plan from the query', () => {
  it('defaults to token and names plans for the banner', () => {
    expect(planFromQuery(null)).toBe('token');
    expect(planFromQuery('')).toBe('token');
    expect(planFromQuery('single')).toBe('single');
    expect(planFromQuery('<script>')).toBe('token');
    expect(planDisplayName('token')).toBe('Token');
    expect(planDisplayName('single')).toBe('Single');
    expect(planDisplayName('pro_monthly')).toBe('Pro Monthly');
  });
});
