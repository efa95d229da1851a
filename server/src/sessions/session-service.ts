import { createHmac, randomBytes } from 'node:crypto';
import { type Db, softWrite } from '../db/database.ts';

export interface Session {
  idHash: string;
  userId: string | null;
  createdAt: string;
  expiresAt: string;
}

export interface SessionPolicy {
  /** A session unused for this long expires. */
  idleSeconds: number;
  /** A session expires this long after creation, however active. */
  absoluteSeconds: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = {
  idleSeconds: 7 * 24 * 3600,
  absoluteSeconds: 30 * 24 * 3600,
};

const iso = (ms: number) => new Date(ms).toISOString();

interface SessionRow {
  user_id: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

interface CachedSession {
  row: SessionRow;
  until: number;
  /** The session as `resolve` returns it, and the instants that end the fast path. */
  session: Session;
  expiresMs: number;
  idleDeadlineMs: number;
  touchDueMs: number;
}

/** A session is touched (last_seen_at) at most this often, to keep writes off polling clients' path. */
const TOUCH_EVERY_MS = 60_000;

/** How long a poll route may trust a session row it read (revocation through this service is immediate). */
export const SESSION_CACHE_TTL_MS = 5_000;
const SESSION_CACHE_MAX = 20_000;

/**
 * Server-side sessions: the cookie carries an opaque 256-bit id; the DB stores only its keyed hash,
 * so a leaked database cannot be replayed as cookies.
 */
export class SessionService {
  /**
   * Session rows read by poll routes (`resolve(raw, { cached: true })`), by id hash, for a few seconds.
   * destroy/destroyAllForUser/rotate drop the entry at once; a row deleted behind this service's back
   * (another API process, an operator) is refused by poll routes within SESSION_CACHE_TTL_MS.
   */
  private readonly cache = new Map<string, CachedSession>();
  /** Cookie value → id hash of sessions poll routes resolved (an HMAC per poll cost ~4 % of its CPU). */
  private readonly hashes = new Map<string, string>();
  /** Destroy sequence numbers by id hash: a read that started before a destroy must not re-cache the row. */
  private readonly revoked = new Map<string, number>();
  private destroys = 0;

  constructor(
    private readonly db: Db,
    private readonly hashKey: string,
    private readonly policy: SessionPolicy = DEFAULT_SESSION_POLICY,
    private readonly now: () => number = Date.now,
    private readonly cacheTtlMs: number = SESSION_CACHE_TTL_MS,
  ) {}

  hash(rawId: string): string {
    return createHmac('sha256', this.hashKey).update(rawId).digest('hex');
  }

  /** A new session; pass a transaction as `db` to create it inside one (login rotates inside one). */
  async create(userId: string | null, db: Db = this.db): Promise<{ rawId: string; session: Session }> {
    const rawId = randomBytes(32).toString('base64url');
    const t = this.now();
    const session: Session = {
      idHash: this.hash(rawId),
      userId,
      createdAt: iso(t),
      expiresAt: iso(t + this.policy.absoluteSeconds * 1000),
    };
    await db
      .insertInto('sessions')
      .values({
        id_hash: session.idHash,
        user_id: userId,
        created_at: session.createdAt,
        last_seen_at: session.createdAt,
        expires_at: session.expiresAt,
      })
      .execute();
    return { rawId, session };
  }

  /**
   * Looks a cookie value up; expired sessions are deleted and read as absent. With `cached`, a row
   * read in the last few seconds is used without a query (the poll routes: status, every 2 s per tab).
   */
  async resolve(rawId: string, options: { cached?: boolean } = {}): Promise<Session | null> {
    const idHash = (options.cached && this.hashes.get(rawId)) || this.hash(rawId);
    let t = this.now();
    const hit = options.cached ? this.cache.get(idHash) : undefined;
    let row: SessionRow | undefined;
    if (hit && hit.until > t) {
      row = hit.row;
    } else {
      const destroysBefore = this.destroys;
      row = await this.db
        .selectFrom('sessions')
        .select(['user_id', 'created_at', 'last_seen_at', 'expires_at'])
        .where('id_hash', '=', idHash)
        .executeTakeFirst();
      if (!row) {
        this.cache.delete(idHash);
        return null;
      }
      // Destroyed while the row was being read: the row is gone, whatever the read saw.
      if ((this.revoked.get(idHash) ?? -1) > destroysBefore) return null;
      t = this.now();
      if (options.cached) this.remember(rawId, idHash, row, t);
    }
    const idleDeadline = Date.parse(row.last_seen_at) + this.policy.idleSeconds * 1000;
    if (t >= Date.parse(row.expires_at) || t >= idleDeadline) {
      await this.destroy(idHash);
      return null;
    }
    // Touch at most once a minute to keep writes off the hot path of polling clients.
    if (t - Date.parse(row.last_seen_at) > TOUCH_EVERY_MS) {
      row.last_seen_at = iso(t);
      const lastSeen = row.last_seen_at;
      const entry = this.cache.get(idHash);
      if (entry?.row === row) {
        entry.idleDeadlineMs = t + this.policy.idleSeconds * 1000;
        entry.touchDueMs = t + TOUCH_EVERY_MS + 1;
      }
      await softWrite(this.db, (db) =>
        db.updateTable('sessions').set({ last_seen_at: lastSeen }).where('id_hash', '=', idHash).execute(),
      );
    }
    return { idHash, userId: row.user_id, createdAt: row.created_at, expiresAt: row.expires_at };
  }

  /**
   * A poll route's session without a promise: the cached row when it needs no query (fresh) and no
   * write (no expiry to enforce, no touch due); undefined sends the caller to `resolve`.
   */
  resolveCachedNow(rawId: string): Session | undefined {
    const session = this.sharedCachedNow(rawId);
    return session && { ...session };
  }

  /**
   * resolveCachedNow without the copy: the cache's own object, shared by every caller until the
   * entry is replaced (the fast lane's polls, which allocate nothing per request). Never mutate it.
   */
  sharedCachedNow(rawId: string): Readonly<Session> | undefined {
    const idHash = this.hashes.get(rawId);
    const hit = idHash === undefined ? undefined : this.cache.get(idHash);
    if (!hit) return undefined;
    const t = this.now();
    if (t >= hit.until || t >= hit.expiresMs || t >= hit.idleDeadlineMs || t >= hit.touchDueMs)
      return undefined;
    return hit.session;
  }

  private remember(rawId: string, idHash: string, row: SessionRow, t: number): void {
    if (this.cache.size >= SESSION_CACHE_MAX) {
      for (const [key, entry] of this.cache) if (entry.until <= t) this.cache.delete(key);
      if (this.cache.size >= SESSION_CACHE_MAX) this.cache.clear();
    }
    if (this.hashes.size >= SESSION_CACHE_MAX) this.hashes.clear();
    this.hashes.set(rawId, idHash);
    const lastSeen = Date.parse(row.last_seen_at);
    this.cache.set(idHash, {
      row,
      until: t + this.cacheTtlMs,
      session: { idHash, userId: row.user_id, createdAt: row.created_at, expiresAt: row.expires_at },
      expiresMs: Date.parse(row.expires_at),
      idleDeadlineMs: lastSeen + this.policy.idleSeconds * 1000,
      touchDueMs: lastSeen + TOUCH_EVERY_MS + 1,
    });
  }

  /** Drops cached rows (and marks reads in flight as stale) before the rows are deleted. */
  private forget(idHashes: Iterable<string>): void {
    this.destroys += 1;
    for (const idHash of idHashes) {
      this.cache.delete(idHash);
      this.revoked.set(idHash, this.destroys);
    }
    if (this.revoked.size > SESSION_CACHE_MAX) {
      // Reads take milliseconds: only the most recent destroys can still race one.
      const keep = [...this.revoked].slice(-1000);
      this.revoked.clear();
      for (const [k, v] of keep) this.revoked.set(k, v);
    }
  }

  async destroy(idHash: string, db: Db = this.db): Promise<void> {
    this.forget([idHash]);
    await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
    this.forget([idHash]);
  }

  /**
   * Session fixation defence: the caller's old session (if any) is deleted and a new id is issued for
   * `userId`. Run it in the same transaction as whatever else login or registration changes.
   */
  async rotate(
    previous: Session | null,
    userId: string,
    db: Db = this.db,
  ): Promise<{ rawId: string; session: Session }> {
    if (previous) await this.destroy(previous.idHash, db);
    return this.create(userId, db);
  }

  async destroyAllForUser(userId: string): Promise<void> {
    const cachedOfUser = () =>
      [...this.cache].filter(([, entry]) => entry.row.user_id === userId).map(([idHash]) => idHash);
    const rows = await this.db
      .selectFrom('sessions')
      .select('id_hash')
      .where('user_id', '=', userId)
      .execute();
    this.forget([...cachedOfUser(), ...rows.map((r) => r.id_hash)]);
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
    this.forget(cachedOfUser());
  }
}
