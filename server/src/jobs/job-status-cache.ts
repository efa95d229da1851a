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
}

export const DEFAULT_STATUS_CACHE: JobStatusCacheOptions = {
  maxEntries: 50_000,
  localTtlMs: 30_000,
  activeTtlMs: 1_000,
  finishedTtlMs: 30_000,
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
 * (another API process's or a `fieldline worker`'s) are read from the database at most once per
 * `activeTtlMs` per job, however many clients poll them.
 */
export class JobStatusCache {
  private readonly entries = new Map<string, Entry>();
  private readonly options: JobStatusCacheOptions;

  constructor(
    options: Partial<JobStatusCacheOptions> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.options = { ...DEFAULT_STATUS_CACHE, ...options };
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
    return this.store(row, this.options.localTtlMs, true);
  }

  /**
   * A snapshot read from the database. It never replaces a live entry this process's worker wrote
   * (that one is at least as new as the read).
   */
  putRead(row: JobSnapshot): CachedSnapshot {
    const live = this.entries.get(row.id);
    if (live?.local && live.until > this.now()) return live.cached;
    const ttl = ACTIVE.has(row.status) ? this.options.activeTtlMs : this.options.finishedTtlMs;
    return this.store(row, ttl, false);
  }

  invalidate(id: string): void {
    this.entries.delete(id);
  }

  /** A guest signed in: their session's jobs now belong to the user. */
  invalidateSession(sessionHash: string): void {
    for (const [id, entry] of this.entries)
      if (entry.cached.snap.owner_session_hash === sessionHash) this.entries.delete(id);
  }

  clear(): void {
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
