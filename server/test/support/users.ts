import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../src/app-context.ts';
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

let ipCounter = 0;
/** A distinct client IP per call, so tests that register many users stay under the per-IP limit. */
const nextIp = () => {
  ipCounter += 1;
  return `10.200.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
};

/** Registers a user through the real endpoint and returns their signed-in cookie. */
export async function registerTestUser(
  app: FastifyInstance,
  overrides: TestUserInput = {},
  ip = nextIp(),
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

/** Registers a user, makes them an admin (as `fieldline admin grant` does) and logs them in again. */
export async function registerTestAdmin(
  app: FastifyInstance,
  ctx: AppContext,
  overrides: TestUserInput = {},
): Promise<TestUser> {
  const user = await registerTestUser(app, overrides);
  await ctx.accounts.setRole(user.email, 'admin');
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: user.password },
    remoteAddress: nextIp(),
  });
  if (res.statusCode !== 200) throw new Error(`admin login failed: ${res.statusCode} ${res.body}`);
  return { ...user, cookie: cookieFrom(res) };
}
