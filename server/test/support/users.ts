import type { FastifyInstance } from 'fastify';
import { cookieFrom } from './test-app.ts';

export interface TestUserInput {
  name?: string;
  email?: string;
  username?: string;
  password?: string;
  plan?: string;
}

export interface TestUser {
  id: string;
  email: string;
  username: string;
  password: string;
  /** `fl_session=…` of the session the registration signed in. */
  cookie: string;
}

let counter = 0;

/** A unique, valid registration payload (a real mail domain: reserved ones are refused). */
export function newUserInput(overrides: TestUserInput = {}) {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  return {
    name: 'Ada Lovelace',
    email: `ada.${tag}@analytical-engines.com`,
    username: `ada_${tag}`.slice(0, 20),
    password: 'correct horse battery staple',
    acceptedTerms: true,
    ...overrides,
  };
}

/**
 * Registers a user through the real endpoint and returns their signed-in cookie. Each call counts
 * against the per-IP registration limit, so pass a distinct `ip` when a test registers many.
 */
export async function registerTestUser(
  app: FastifyInstance,
  overrides: TestUserInput = {},
  ip = '10.0.0.1',
): Promise<TestUser> {
  const input = newUserInput(overrides);
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: input,
    remoteAddress: ip,
  });
  if (res.statusCode !== 201) throw new Error(`registration failed: ${res.statusCode} ${res.body}`);
  return {
    id: res.json().user.id,
    email: input.email,
    username: input.username,
    password: input.password,
    cookie: cookieFrom(res),
  };
}
