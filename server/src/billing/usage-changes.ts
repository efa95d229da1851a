/**
 * Which users' plan, subscription or ledger changed lately, for caches of what the billing screens
 * read (subscription-info). Writers call `noteUsageChange` when they write — usually inside a
 * transaction that commits a moment later — so a user with a recent write is not cached at all for
 * SETTLE_MS, and a read that overlapped a write is never stored (the change counter moved).
 * Process-wide on purpose: several apps in one process (tests) only invalidate more, never less.
 */
const SETTLE_MS = 2_000;
const MAX_TRACKED = 50_000;

const changes = new Map<string, { count: number; settledAt: number }>();
let total = 0;
/** Users no longer tracked read as this (the count at the last pruning), so old cache entries miss. */
let floor = 0;

export function noteUsageChange(userId: string, now = Date.now()): void {
  total += 1;
  const entry = changes.get(userId);
  if (entry) {
    entry.count = total;
    entry.settledAt = now + SETTLE_MS;
    return;
  }
  if (changes.size >= MAX_TRACKED) {
    for (const [id, e] of changes) if (e.settledAt <= now) changes.delete(id);
    floor = total;
  }
  changes.set(userId, { count: total, settledAt: now + SETTLE_MS });
}

/** A stamp to compare before and after a read; null while the user's writes may be uncommitted. */
export function usageStamp(userId: string, now = Date.now()): number | null {
  const entry = changes.get(userId);
  if (!entry) return floor;
  return entry.settledAt > now ? null : entry.count;
}

/**
 * A user's value cached for `ttlMs` (and never past `expiresAt`), dropped by any usage change.
 * Bounded: at `max` entries the expired ones go, then all.
 */
export class UsageCache<T> {
  private readonly entries = new Map<string, { value: T; stamp: number; until: number }>();
  constructor(
    private readonly ttlMs: number,
    private readonly max = 20_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached value when `get` would return it without reading, else undefined (never reads). */
  peek(userId: string): T | undefined {
    const t = this.now();
    const stamp = usageStamp(userId, t);
    const hit = this.entries.get(userId);
    return hit && stamp !== null && hit.stamp === stamp && hit.until > t ? hit.value : undefined;
  }

  async get(userId: string, read: () => Promise<T>, expiresAt?: (value: T) => number | null): Promise<T> {
    const hit = this.peek(userId);
    if (hit !== undefined) return hit;
    const stamp = usageStamp(userId, this.now());
    const value = await read();
    const after = this.now();
    if (stamp === null || usageStamp(userId, after) !== stamp) {
      this.entries.delete(userId);
      return value;
    }
    const end = expiresAt?.(value);
    const until = Math.min(after + this.ttlMs, end ?? Number.POSITIVE_INFINITY);
    if (until <= after) return value;
    if (this.entries.size >= this.max) {
      for (const [id, e] of this.entries) if (e.until <= after) this.entries.delete(id);
      if (this.entries.size >= this.max) this.entries.clear();
    }
    this.entries.set(userId, { value, stamp, until });
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
