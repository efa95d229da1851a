import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HttpResult } from '../../src/environment/api/fea-api.ts';
import {
  ANALYSIS_POLLING,
  classifyStatus,
  GENERIC_WAIT_RULES,
  MESHING_POLLING,
  pollJob,
} from '../../src/environment/jobs/job-polling.ts';

const answer = (status: number, json: unknown = {}): HttpResult => ({
  ok: status < 400,
  status,
  json,
  text: '',
});
const running = (progress: number) => answer(200, { status: 'running', progress });

/** Drives pollJob with fake timers, recording when each status request happens. */
function scripted(replies: (HttpResult | Error)[]) {
  const times: number[] = [];
  let i = 0;
  const fetchStatus = async () => {
    times.push(Date.now());
    const r = replies[Math.min(i++, replies.length - 1)] as HttpResult | Error;
    if (r instanceof Error) throw r;
    return r;
  };
  return { times, fetchStatus };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
});
afterEach(() => vi.useRealTimers());

describe('analysis polling (spec 001 §9)', () => {
  it('polls first after 1 s, then every 2 s, until completed', async () => {
    const s = scripted([running(10), running(40), answer(200, { status: 'completed', results: { a: 1 } })]);
    const progress: number[] = [];
    const done = pollJob(ANALYSIS_POLLING, {
      fetchStatus: s.fetchStatus,
      onProgress: (p) => progress.push(p),
    });
    await vi.advanceTimersByTimeAsync(10_000);
    const end = await done;
    expect(end).toMatchObject({ kind: 'completed', body: { results: { a: 1 } } });
    expect(s.times).toEqual([1000, 3000, 5000]);
    expect(progress).toEqual([10, 40]);
  });

  it('treats 404 as running at 0 %, 500 as running at 50 %, unknown states as running', async () => {
    const s = scripted([
      answer(404),
      answer(500),
      answer(200, { status: 'mystery', progress: 70 }),
      answer(200, { status: 'failed', error: 'x' }),
    ]);
    const progress: number[] = [];
    const done = pollJob(ANALYSIS_POLLING, {
      fetchStatus: s.fetchStatus,
      onProgress: (p) => progress.push(p),
    });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await done).toMatchObject({ kind: 'failed', body: { error: 'x' } });
    expect(progress).toEqual([0, 50, 70]);
  });

  it('on server busy adds 5 % (up to 95) and waits 4 s', async () => {
    const busy = answer(503, { error: 'busy', message: 'Server busy' });
    const s = scripted([running(88), busy, busy, busy, answer(200, { status: 'completed' })]);
    const progress: number[] = [];
    const done = pollJob(ANALYSIS_POLLING, {
      fetchStatus: s.fetchStatus,
      onProgress: (p) => progress.push(p),
    });
    await vi.advanceTimersByTimeAsync(30_000);
    await done;
    expect(progress).toEqual([88, 93, 95, 95]);
    expect(s.times).toEqual([1000, 3000, 7000, 11000, 15000]);
  });

  it('gives up after more than 10 failed polls', async () => {
    const s = scripted([new Error('network down')]);
    const done = pollJob(ANALYSIS_POLLING, { fetchStatus: s.fetchStatus });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await done).toEqual({ kind: 'too-many-errors', errors: 11, detail: 'network down' });
    expect(s.times.length).toBe(11);
  });

  it('times out after 150 attempts (300 s)', async () => {
    const s = scripted([running(5)]);
    const done = pollJob(ANALYSIS_POLLING, { fetchStatus: s.fetchStatus });
    await vi.advanceTimersByTimeAsync(400_000);
    expect(await done).toEqual({ kind: 'timeout', attempts: 150 });
    expect(s.times.length).toBe(150);
    expect(s.times.at(-1)).toBe(1000 + 149 * 2000);
  });

  it('stops when aborted', async () => {
    const s = scripted([running(5)]);
    const controller = new AbortController();
    const done = pollJob(ANALYSIS_POLLING, { fetchStatus: s.fetchStatus, signal: controller.signal });
    const settled = expect(done).rejects.toThrow('aborted');
    await vi.advanceTimersByTimeAsync(3500);
    controller.abort();
    await settled;
    expect(s.times.length).toBe(2);
  });
});

describe('meshing polling (spec 001 §9)', () => {
  it('polls every 2 s up to 60 attempts', async () => {
    const s = scripted([running(1)]);
    const done = pollJob(MESHING_POLLING, { fetchStatus: s.fetchStatus });
    await vi.advanceTimersByTimeAsync(200_000);
    expect(await done).toEqual({ kind: 'timeout', attempts: 60 });
    expect(s.times.slice(0, 3)).toEqual([2000, 4000, 6000]);
    expect(s.times.length).toBe(60);
  });

  it('tolerates 5 poll errors and fails on the sixth', async () => {
    const err = answer(502, { message: 'bad gateway' });
    const tolerated = scripted([err, err, err, err, err, answer(200, { status: 'completed' })]);
    const ok = pollJob(MESHING_POLLING, { fetchStatus: tolerated.fetchStatus });
    await vi.advanceTimersByTimeAsync(30_000);
    expect((await ok).kind).toBe('completed');

    const failing = scripted([err]);
    const bad = pollJob(MESHING_POLLING, { fetchStatus: failing.fetchStatus });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await bad).toEqual({ kind: 'too-many-errors', errors: 6, detail: 'bad gateway' });
  });
});

describe('generic wait (spec 001 §9)', () => {
  it('polls every 3 s for 300 s and stops after 5 consecutive errors', async () => {
    expect(GENERIC_WAIT_RULES.maxAttempts * GENERIC_WAIT_RULES.intervalMs).toBe(300_000);
    const e = new Error('x');
    const s = scripted([e, e, e, e, running(3), e, e, e, e, e]);
    const done = pollJob(GENERIC_WAIT_RULES, { fetchStatus: s.fetchStatus });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await done).toMatchObject({ kind: 'too-many-errors', errors: 5 });
    expect(s.times.length).toBe(10);
    expect(s.times[0]).toBe(3000);
  });
});

describe('classifyStatus', () => {
  it('reads job states', () => {
    expect(classifyStatus(answer(200, { status: 'queued', progress: 0 })).kind).toBe('running');
    expect(classifyStatus(answer(200, { status: 'cancelled' })).kind).toBe('cancelled');
    expect(classifyStatus(answer(429)).kind).toBe('busy');
    expect(classifyStatus(answer(401, { message: 'Sign in' }))).toEqual({ kind: 'error', detail: 'Sign in' });
  });
});
