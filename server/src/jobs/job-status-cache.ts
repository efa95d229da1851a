import type { JobOwner } from './job-owner.ts';
import type { JobRow } from './job-service.ts';

/** The columns a status reply is made of (spec 001 §7) and its owner, as last known to this process. */
export type JobSnapshot = Pick<
  JobRow,
  | 'id'
  | 'owner_user_id'
  | 'owner_session_hash'
  | 'kind'
  | 'status'
  | 'progress'
  | 'message'
  | 'error_message'
  | 'result_location'
  | 'files_deleted_at'
>;

export const SNAPSHOT_COLUMNS = [
  'id',
  'owner_user_id',
  'owner_session_hash',
  'kind',
  'status',
  'progress',
  'message',
  'error_message',
  'result_location',
  'files_deleted_at',
] as const satisfies readonly (keyof JobRow)[];

/** A snapshot with whatever the reply builder derived from it (dropped with the snapshot). */
export interface CachedSnapshot<V = unknown> {
  readonly snap: JobSnapshot;
  /** Set by the reply builder: the serialised reply and its ETag for exactly this snapshot. */
  view?: V;
}

interface Entry {
  cached: CachedSnapshot;
  until: number;
  /** Written by this process's worker rather than read from the database. */
  local: boolean;
}

/** A database read of a job's row in flight (see `beginRead`). */
export interface StatusRead {
  readonly id: string;
  /** `feedEpoch` when the read started: a feed reconnect or loss since then makes the read untrusted. */
  readonly epoch: number;
  /** A feed message for this job arrived while the read was in flight (the read may predate it). */
  raced: boolean;
}

export interface JobStatusCacheOptions {
  /** Entries kept at most (the least recently written go first). */
  maxEntries: number;
  /**
   * How long a snapshot fed by this process's own worker stays valid. The worker refreshes it at every
   * lease heartbeat (about once a second), so this only bounds a worker that stopped without finishing.
   */
  localTtlMs: number;
  /** A queued or running job read from the database (another process may be moving it): a micro-cache. */
  activeTtlMs: number;
  /** A finished job read from the database (only retention changes it, and the sweeper here invalidates). */
  finishedTtlMs: number;
  /**
   * A queued or running job read or fed while the status feed (LISTEN/NOTIFY between processes) is
   * connected: every committed change arrives as a message, so this only bounds how stale a poll can be
   * if one is lost anyway (a half-open connection not yet noticed).
   */
  fedTtlMs: number;
}

export const DEFAULT_STATUS_CACHE: JobStatusCacheOptions = {
  maxEntries: 50_000,
  localTtlMs: 30_000,
  activeTtlMs: 1_000,
  finishedTtlMs: 30_000,
  fedTtlMs: 10_000,
};

const ACTIVE = new Set<string>(['queued', 'running']);

/** Same rule as JobService.findOwned: a user's own jobs, or a guest session's jobs that no user owns. */
export function ownsJob(snap: Pick<JobSnapshot, 'owner_user_id' | 'owner_session_hash'>, owner: JobOwner) {
  if (owner.userId) return snap.owner_user_id === owner.userId;
  return (
    owner.sessionHash !== null && snap.owner_user_id === null && snap.owner_session_hash === owner.sessionHash
  );
}

export function snapshotOf(row: JobSnapshot): JobSnapshot {
  return {
    id: row.id,
    owner_user_id: row.owner_user_id,
    owner_session_hash: row.owner_session_hash,
    kind: row.kind,
    status: row.status,
    progress: row.progress,
    message: row.message,
    error_message: row.error_message,
    result_location: row.result_location,
    files_deleted_at: row.files_deleted_at,
  };
}

/**
 * In-process job status, so a status poll of a running job costs no database query: JobService feeds
 * it from the job's own state changes (claim, every lease heartbeat with its progress) and drops an
 * entry on any other change (finish, cancel, re-queue, retention). Jobs this process does not run
 * (another API process's or a `fieldline worker`'s) are fed by the status feed (PostgreSQL
 * LISTEN/NOTIFY, `status-feed.ts`) while it is connected, and then re-read at most once per `fedTtlMs`;
 * without a feed (SQLite, or the feed's connection down) they are read at most once per `activeTtlMs`
 * per job, however many clients poll them. The database stays the source of truth.
 */
export class JobStatusCache {
  private readonly entries = new Map<string, Entry>();
  private readonly options: JobStatusCacheOptions;
  /** Whether the status feed is connected and listening (so every committed change reaches `putFed`). */
  private feedLive = false;
  /** Bumped whenever the feed connects or is lost: reads started before then are not trusted for long. */
  private feedEpoch = 0;
  /** Reads in flight, by job id (a feed message for the job marks them raced). */
  private readonly reads = new Map<string, Set<StatusRead>>();
  /** Counts every change the cache heard of (local writes, invalidations, feed messages and state). */
  private changeCount = 0;
  /** Called with each fed snapshot that replaced a cached one (e.g. to prepare a completed reply). */
  readonly onFed: Array<(snap: JobSnapshot) => void> = [];

  constructor(
    options: Partial<JobStatusCacheOptions> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.options = { ...DEFAULT_STATUS_CACHE, ...options };
  }

  /** Grows whenever the cache hears of a change: a read started before it may be older than the change. */
  get changes(): number {
    return this.changeCount;
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string): CachedSnapshot | null {
    const entry = this.entries.get(id);
    if (!entry) return null;
    if (entry.until <= this.now()) {
      this.entries.delete(id);
      return null;
    }
    return entry.cached;
  }

  /** A snapshot written by this process's own worker (claim, heartbeat, progress). */
  putLocal(row: JobSnapshot): CachedSnapshot {
    this.changeCount++;
    return this.store(row, this.options.localTtlMs, true);
  }

  /** Marks the start of a database read of a job's row; pass it to `putRead` (or `endRead`) after. */
  beginRead(id: string): StatusRead {
    const read: StatusRead = { id, epoch: this.feedEpoch, raced: false };
    let pending = this.reads.get(id);
    if (!pending) {
      pending = new Set();
      this.reads.set(id, pending);
    }
    pending.add(read);
    return read;
  }

  /** A read that stored nothing (it failed, or found no row). */
  endRead(read: StatusRead): void {
    const pending = this.reads.get(read.id);
    if (!pending) return;
    pending.delete(read);
    if (pending.size === 0) this.reads.delete(read.id);
  }

  /**
   * A snapshot read from the database. It never replaces a live entry this process's worker wrote
   * (that one is at least as new as the read). An active job's snapshot is kept `fedTtlMs` when the feed
   * was connected for the whole read and no message for the job arrived meanwhile (the feed then brings
   * every later change); otherwise `activeTtlMs`.
   */
  putRead(row: JobSnapshot, read?: StatusRead): CachedSnapshot {
    if (read) this.endRead(read);
    const live = this.entries.get(row.id);
    if (live?.local && live.until > this.now()) return live.cached;
    if (!ACTIVE.has(row.status)) return this.store(row, this.options.finishedTtlMs, false);
    const trusted = read !== undefined && this.feedLive && read.epoch === this.feedEpoch && !read.raced;
    return this.store(row, trusted ? this.options.fedTtlMs : this.options.activeTtlMs, false);
  }

  /**
   * A job's snapshot as committed by any process (a status feed message). Ignored for a job this process
   * does not cache (nobody polls it here) and for one its own worker is running (it feeds that itself).
   */
  putFed(row: JobSnapshot): CachedSnapshot | null {
    this.changeCount++;
    for (const read of this.reads.get(row.id) ?? []) read.raced = true;
    const entry = this.entries.get(row.id);
    if (!entry) return null;
    const now = this.now();
    if (entry.until <= now) {
      this.entries.delete(row.id);
      return null;
    }
    if (entry.local) return null;
    const ttl = ACTIVE.has(row.status) ? this.options.fedTtlMs : this.options.finishedTtlMs;
    const cached = this.store(row, ttl, false);
    for (const listener of this.onFed) {
      try {
        listener(cached.snap);
      } catch {
        // a listener's failure (a reply warm-up) never stops the feed
      }
    }
    return cached;
  }

  /** A feed message saying only that the job changed (its snapshot did not fit in the message). */
  invalidateFed(id: string): void {
    this.changeCount++;
    for (const read of this.reads.get(id) ?? []) read.raced = true;
    const entry = this.entries.get(id);
    if (entry && !entry.local) this.entries.delete(id);
  }

  /**
   * The feed is listening (again): messages sent while it was not may be lost, so every snapshot read
   * from the database or fed before now is dropped and the next poll reads the row once.
   */
  feedConnected(): void {
    this.changeCount++;
    this.feedLive = true;
    this.feedEpoch++;
    for (const [id, entry] of this.entries) if (!entry.local) this.entries.delete(id);
  }

  /** The feed lost its connection: snapshots of active jobs not fed by this process live `activeTtlMs` at most. */
  feedLost(): void {
    if (!this.feedLive) return;
    this.changeCount++;
    this.feedLive = false;
    this.feedEpoch++;
    const until = this.now() + this.options.activeTtlMs;
    for (const entry of this.entries.values())
      if (!entry.local && ACTIVE.has(entry.cached.snap.status) && entry.until > until) entry.until = until;
  }

  get feedConnectedNow(): boolean {
    return this.feedLive;
  }

  invalidate(id: string): void {
    this.changeCount++;
    this.entries.delete(id);
  }

  /** A guest signed in: their session's jobs now belong to the user. */
  invalidateSession(sessionHash: string): void {
    this.changeCount++;
    for (const [id, entry] of this.entries)
      if (entry.cached.snap.owner_session_hash === sessionHash) this.entries.delete(id);
  }

  clear(): void {
    this.changeCount++;
    this.entries.clear();
  }

  private store(row: JobSnapshot, ttlMs: number, local: boolean): CachedSnapshot {
    const cached: CachedSnapshot = { snap: snapshotOf(row) };
    this.entries.delete(row.id); // re-insert: Map order is the eviction order (oldest write first)
    this.entries.set(row.id, { cached, until: this.now() + ttlMs, local });
    if (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return cached;
  }
}
