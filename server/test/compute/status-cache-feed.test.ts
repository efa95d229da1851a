import { describe, expect, it } from 'vitest';
import { type JobSnapshot, JobStatusCache } from '../../src/jobs/job-status-cache.ts';

// Issue 20: how the status cache takes the status feed's messages (PostgreSQL LISTEN/NOTIFY between API
// processes) and keeps its staleness bounded when the feed is down or a message is lost. A fake clock.
const ttl = { activeTtlMs: 1_000, fedTtlMs: 10_000, finishedTtlMs: 30_000, localTtlMs: 30_000 };

function setup() {
  let now = 0;
  const cache = new JobStatusCache(ttl, () => now);
  return { cache, advance: (ms: number) => (now += ms) };
}

const snap = (over: Partial<JobSnapshot> = {}): JobSnapshot => ({
  id: 'job-1',
  owner_user_id: 'u1',
  owner_session_hash: null,
  kind: 'analysis',
  status: 'running',
  progress: 10,
  message: 'Solving',
  error_message: null,
  result_location: null,
  files_deleted_at: null,
  ...over,
});

/** A poll's database read as JobService.readStatus makes it. */
const read = (cache: JobStatusCache, row: JobSnapshot) => cache.putRead(row, cache.beginRead(row.id));

describe('the status cache with a status feed', () => {
  it('keeps a read snapshot of a running job 1 s without a feed, 10 s with one', () => {
    const { cache, advance } = setup();
    read(cache, snap());
    advance(1_001);
    expect(cache.get('job-1')).toBeNull();
    cache.feedConnected();
    read(cache, snap());
    advance(9_999);
    expect(cache.get('job-1')?.snap.progress).toBe(10);
    advance(2);
    expect(cache.get('job-1')).toBeNull(); // bounded staleness: a lost message is re-read within 10 s
  });

  it('takes a message for a cached job, ignores one for a job it does not cache', () => {
    const { cache, advance } = setup();
    cache.feedConnected();
    const fed: string[] = [];
    cache.onFed.push((s) => fed.push(`${s.id}:${s.status}`));
    read(cache, snap());
    expect(cache.putFed(snap({ progress: 55 }))?.snap.progress).toBe(55);
    expect(cache.putFed(snap({ id: 'job-2', progress: 1 }))).toBeNull();
    expect(cache.get('job-2')).toBeNull();
    advance(9_000); // a message restarts the bound
    expect(cache.putFed(snap({ status: 'completed', progress: 100, result_location: 'r' }))).not.toBeNull();
    advance(20_000);
    expect(cache.get('job-1')?.snap).toMatchObject({ status: 'completed', result_location: 'r' });
    expect(fed).toEqual(['job-1:running', 'job-1:completed']);
  });

  it('never lets a message replace what this process’s own worker wrote', () => {
    const { cache } = setup();
    cache.feedConnected();
    cache.putLocal(snap({ progress: 70 }));
    expect(cache.putFed(snap({ progress: 60 }))).toBeNull();
    expect(cache.get('job-1')?.snap.progress).toBe(70);
  });

  it('keeps a read that a message overtook only 1 s (the read may predate the message)', () => {
    const { cache, advance } = setup();
    cache.feedConnected();
    const pending = cache.beginRead('job-1');
    cache.putFed(snap({ progress: 80 })); // not cached yet: ignored, but the read in flight is marked
    cache.putRead(snap({ progress: 40 }), pending);
    advance(1_001);
    expect(cache.get('job-1')).toBeNull();
  });

  it('re-reads everything after a reconnect, and falls back to 1 s while the feed is down', () => {
    const { cache, advance } = setup();
    cache.feedConnected();
    read(cache, snap());
    read(cache, snap({ id: 'done', status: 'completed' }));
    cache.putLocal(snap({ id: 'mine' }));

    cache.feedLost();
    advance(1_001);
    expect(cache.get('job-1')).toBeNull(); // its 10 s were cut to 1 s when the feed was lost
    expect(cache.get('done')).not.toBeNull();

    const during = cache.beginRead('job-1');
    cache.feedConnected(); // messages may have been lost meanwhile: only this process's own entries stay
    expect(cache.get('done')).toBeNull();
    expect(cache.get('mine')).not.toBeNull();
    cache.putRead(snap(), during); // a read that started before the reconnect is not trusted for long
    advance(1_001);
    expect(cache.get('job-1')).toBeNull();
  });

  it('drops a cached job on a message that carries only its id (too large, or deleted)', () => {
    const { cache } = setup();
    cache.feedConnected();
    read(cache, snap());
    cache.invalidateFed('job-1');
    expect(cache.get('job-1')).toBeNull();
  });
});
