import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FastLane, fastLaneOf } from '../src/http/fast-lane.ts';
import { sessionCookie } from '../src/http/lane-caller.ts';
import { claimedJob, signedInUser } from './support/compute.ts';
import { rawGet } from './support/raw-http.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

// Issue 20: status polls answered from memory before Fastify (src/fea/status-fast-lane.ts) must be
// the route's own reply — same status, headers and bytes — and must never answer what the route would
// refuse. The lane only exists on a real server, so these tests speak HTTP over a socket. A query
// string (`?via=route`) sends the same poll through Fastify for comparison.
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ WELCOME_GRANT_TOKENS: '0' }, { startQueue: false });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t.close());

const lane = () => fastLaneOf(t.app.server) as FastLane;

const get = (path: string, headers: Record<string, string> = {}) => rawGet(`${base}${path}`, headers);

/** The poll through the lane (asserting it served it) and the same poll through the route. */
async function laneAndRoute(jobId: string, headers: Record<string, string>) {
  const before = lane().served;
  const fast = await get(`/api/fea/status/${jobId}`, headers);
  expect(lane().served, 'the lane answered').toBe(before + 1);
  const route = await get(`/api/fea/status/${jobId}?via=route`, headers);
  expect(lane().served, 'the route answered').toBe(before + 1);
  return { fast, route };
}

async function runningJob(worker = 'w1') {
  const running = await claimedJob(t, worker);
  // The first poll goes through the route: it reads the session, the user and the job into the caches.
  expect((await get(`/api/fea/status/${running.job.id}`, { cookie: running.cookie })).status).toBe(200);
  return running;
}

describe('the status fast lane', () => {
  it('answers a cached running job with the route’s status, headers and bytes, and its 304 too', async () => {
    const { cookie, job } = await runningJob();
    const { fast, route } = await laneAndRoute(job.id, { cookie, 'accept-encoding': 'gzip, deflate, br' });
    expect(fast.status).toBe(200);
    expect(fast.headers).toEqual(route.headers);
    expect(fast.body.toString()).toBe(route.body.toString());
    expect(JSON.parse(fast.body.toString())).toMatchObject({ job_id: job.id, status: 'running' });
    expect(fast.headers).toContain('cache-control: private, no-cache');
    const etag = fast.headers.find((h) => h.startsWith('etag: '))?.slice(6) as string;

    const again = await laneAndRoute(job.id, { cookie, 'if-none-match': etag });
    expect(again.fast.status).toBe(304);
    expect(again.fast.headers).toEqual(again.route.headers);
    expect(again.fast.body.length).toBe(0);
  });

  it('shows a progress update at once, with a new ETag', async () => {
    const { cookie, job } = await runningJob('w-progress');
    const before = await get(`/api/fea/status/${job.id}`, { cookie });
    await t.ctx.jobs.renewLease(job, 'w-progress', 60, { percent: 42, message: 'Solving' });
    // The first poll after the change builds the new reply in the route; the next is the lane's.
    const changed = await get(`/api/fea/status/${job.id}`, { cookie });
    expect(JSON.parse(changed.body.toString())).toMatchObject({ progress: 42, message: 'Solving' });
    const { fast } = await laneAndRoute(job.id, { cookie });
    expect(fast.body.toString()).toBe(changed.body.toString());
    expect(fast.headers.find((h) => h.startsWith('etag'))).not.toBe(
      before.headers.find((h) => h.startsWith('etag')),
    );
  });

  it('serves a completed job’s stored brotli and gzip replies byte for byte; identity goes to the route', async () => {
    const { cookie, job } = await runningJob('w-done');
    const files = t.ctx.jobs.files;
    const text = JSON.stringify({ solver_info: { analysis: 'electrostatic' }, potential: [0, 0.5, 1] });
    await files.store.put(files.resultKey(job.id, 'results.json'), Buffer.from(text));
    const t0 = Date.now();
    await t.ctx.jobs.finish(
      job,
      'w-done',
      { status: 'completed', files: [{ name: 'results.json', bytes: text.length }] },
      { startedAt: t0 - 2000, finishedAt: t0 },
    );
    expect((await get(`/api/fea/status/${job.id}`, { cookie, 'accept-encoding': 'br' })).status).toBe(200);
    for (const encoding of ['br', 'gzip, deflate']) {
      const { fast, route } = await laneAndRoute(job.id, { cookie, 'accept-encoding': encoding });
      expect(fast.status).toBe(200);
      expect(fast.headers).toEqual(route.headers);
      expect(fast.body.equals(route.body)).toBe(true);
    }
    const served = lane().served;
    const plain = await get(`/api/fea/status/${job.id}`, { cookie });
    expect(lane().served).toBe(served);
    expect(JSON.parse(plain.body.toString()).results.potential).toEqual([0, 0.5, 1]);
  });

  it('never answers a logged-out or revoked session, someone else’s job or a caller without a cookie', async () => {
    const a = await runningJob();
    expect((await laneAndRoute(a.job.id, { cookie: a.cookie })).fast.status).toBe(200);
    const served = lane().served;
    const other = await signedInUser(t);
    const stranger = await get(`/api/fea/status/${a.job.id}`, { cookie: other.cookie });
    expect(stranger.status).toBe(404);
    expect(stranger.headers.some((h) => h.startsWith('etag'))).toBe(false);
    expect((await get(`/api/fea/status/${a.job.id}`)).status).toBe(404);
    expect(lane().served).toBe(served);

    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: a.cookie } });
    expect((await get(`/api/fea/status/${a.job.id}`, { cookie: a.cookie })).status).toBe(404);

    const b = await runningJob();
    expect((await laneAndRoute(b.job.id, { cookie: b.cookie })).fast.status).toBe(200);
    await t.ctx.sessions.destroyAllForUser(b.userId);
    expect((await get(`/api/fea/status/${b.job.id}`, { cookie: b.cookie })).status).toBe(404);
    expect(lane().served).toBe(served + 1);
  });

  it('reads the session cookie as the cookie parser does, and leaves encoded values to it', () => {
    expect(sessionCookie('a=1; fl_session=abc; fl_session=def')).toBe('abc');
    expect(sessionCookie(' fl_session = abc ;x=2')).toBe('abc');
    expect(sessionCookie('xfl_session=abc')).toBeUndefined();
    expect(sessionCookie('fl_session=a%2Fb')).toBeUndefined();
    expect(sessionCookie('fl_session="abc"')).toBeUndefined();
    expect(sessionCookie(undefined)).toBeUndefined();
  });
});

describe('FastLane turns', () => {
  const written: string[] = [];
  const fakeRes = (url = '') =>
    Object.assign(new EventEmitter(), {
      destroyed: false,
      writeHead: () => undefined,
      end: () => written.push(url),
    }) as unknown as ServerResponse;
  const fakeReq = (url: string) => ({ url }) as IncomingMessage;
  const handle = (fl: FastLane, url: string) => fl.handle(fakeReq(url), fakeRes(url));
  const OK = { statusCode: 200, headers: [] };
  beforeEach(() => {
    written.length = 0;
  });

  it('writes a few replies per event-loop turn, in order, and hands other requests to Fastify at once', async () => {
    const fallback: string[] = [];
    let open = true;
    const fl = new FastLane((req) => fallback.push(req.url as string), 2);
    fl.add((req) => (req.url?.startsWith('/poll') && (open || req.url !== '/poll/4') ? OK : undefined));
    for (const url of ['/poll/1', '/poll/2', '/poll/3', '/submit', '/poll/4', '/poll/5']) handle(fl, url);
    expect(written).toEqual(['/poll/1', '/poll/2']);
    expect(fallback).toEqual(['/submit']); // not queued behind the polls
    open = false; // e.g. a logout while /poll/4 waited: it is looked up again and goes to the route
    await new Promise((r) => setImmediate(r));
    expect(written).toEqual(['/poll/1', '/poll/2', '/poll/3']);
    expect(fallback).toEqual(['/submit', '/poll/4']);
    await new Promise((r) => setImmediate(r));
    expect(written).toEqual(['/poll/1', '/poll/2', '/poll/3', '/poll/5']);
    expect(fl.served).toBe(4);
    // A new turn starts with a fresh budget.
    await new Promise((r) => setImmediate(r));
    handle(fl, '/poll/6');
    expect(written.at(-1)).toBe('/poll/6');
  });

  it('writes fewer replies per turn while Fastify serves a request or a connection arrives', async () => {
    const fl = new FastLane(() => undefined, 6, 2);
    fl.add((req) => (req.url?.startsWith('/poll') ? OK : undefined));
    const polls = (from: number, n: number) => {
      for (let i = from; i < from + n; i++) handle(fl, `/poll/${i}`);
    };
    const submit = fakeRes();
    fl.handle(fakeReq('/submit'), submit);
    polls(1, 8);
    expect(written.length).toBe(2);
    await new Promise((r) => setImmediate(r));
    expect(written.length).toBe(4);
    submit.emit('close'); // the submit's reply went out: full turns again
    await new Promise((r) => setImmediate(r));
    expect(written.length).toBe(8);

    await new Promise((r) => setImmediate(r)); // a fresh turn
    fl.connected();
    polls(9, 6);
    expect(written.length).toBe(10);
    await new Promise((r) => setImmediate(r));
    expect(written.length).toBe(12); // the accepting turn's end is still a busy one
    await new Promise((r) => setImmediate(r));
    expect(written.length).toBe(14); // the next turn has the full budget
  });

  it('hands a request to Fastify when a lane route throws', () => {
    const fallback: string[] = [];
    const fl = new FastLane((req) => fallback.push(req.url as string), 2);
    fl.add(() => {
      throw new Error('bug');
    });
    fl.handle(fakeReq('/poll/1'), fakeRes());
    expect(fallback).toEqual(['/poll/1']);
  });
});
