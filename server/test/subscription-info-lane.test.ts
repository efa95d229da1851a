import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FastLane, fastLaneOf } from '../src/http/fast-lane.ts';
import { creditTokens, signedInUser } from './support/compute.ts';
import { rawGet } from './support/raw-http.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

// Issue 20: the usage panel's poll answered before Fastify (src/billing/subscription-info-lane.ts)
// must be the route's own reply, must show a usage change at once, and must never answer a caller the
// route would refuse. Over real sockets: the lane exists only on a listening server.
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ WELCOME_GRANT_TOKENS: '3' }, { startQueue: false });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t.close());

const lane = () => fastLaneOf(t.app.server) as FastLane;
const PATH = '/api/user/subscription-info';
const get = (cookie?: string, path = PATH) => rawGet(`${base}${path}`, cookie ? { cookie } : {});
const info = (r: { body: Buffer }) => JSON.parse(r.body.toString()) as { tokens_available: number };

/** A signed-in user whose session, user and subscription info the route has just cached. */
async function pollingUser() {
  const user = await signedInUser(t);
  // Past the 2 s in which the welcome grant's write may be uncommitted elsewhere: the route caches now.
  await new Promise((r) => setTimeout(r, 2_100));
  expect((await get(user.cookie)).status).toBe(200);
  return user;
}

describe('the subscription-info lane', () => {
  it('answers a cached user with the route’s status, headers and bytes', async () => {
    const { cookie } = await pollingUser();
    const before = lane().served;
    const fast = await get(cookie);
    expect(lane().served, 'the lane answered').toBe(before + 1);
    const route = await get(cookie, `${PATH}?via=route`);
    expect(lane().served, 'the route answered').toBe(before + 1);
    expect(fast.status).toBe(200);
    expect(fast.headers).toEqual(route.headers);
    expect(fast.body.equals(route.body)).toBe(true);
    expect(fast.headers).toContain('cache-control: no-store');
    expect(info(fast).tokens_available).toBe(3);
  });

  it('shows a usage change at once: the route answers until the write has settled', async () => {
    const { userId, cookie } = await pollingUser();
    expect(info(await get(cookie)).tokens_available).toBe(3);
    const served = lane().served;
    await creditTokens(t.ctx, userId, 10);
    const after = await get(cookie);
    expect(info(after).tokens_available).toBe(13);
    expect(lane().served, 'a changed user is not answered from the lane').toBe(served);
  });

  it('never answers a guest, a logged-out or revoked session, or a caller without a cookie', async () => {
    const a = await pollingUser();
    const served = lane().served;
    expect((await get()).status).toBe(401);
    // A guest's session (cached by its first request) is not a user: the route's 401, twice.
    const guest = `fl_session=${(await t.ctx.sessions.create(null)).rawId}`;
    expect((await get(guest)).status).toBe(401);
    expect((await get(guest)).status).toBe(401);
    expect(lane().served).toBe(served);

    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: a.cookie } });
    expect((await get(a.cookie)).status).toBe(401);

    const b = await pollingUser();
    expect((await get(b.cookie)).status).toBe(200);
    expect(lane().served).toBe(served + 1);
    await t.ctx.sessions.destroyAllForUser(b.userId);
    expect((await get(b.cookie)).status).toBe(401);
    expect(lane().served).toBe(served + 1);
  });
});
