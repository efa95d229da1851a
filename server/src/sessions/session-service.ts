import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';

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

/**
 * Server-side sessions: the cookie carries an opaque 256-bit id; the DB stores only its keyed hash,
 * so a leaked database cannot be replayed as cookies.
 */
export class SessionService {
  constructor(
    private readonly db: Db,
    private readonly hashKey: string,
    private readonly policy: SessionPolicy = DEFAULT_SESSION_POLICY,
    private readonly now: () => number = Date.now,
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

  /** Looks a cookie value up; expired sessions are deleted and read as absent. */
  async resolve(rawId: string): Promise<Session | null> {
    const idHash = this.hash(rawId);
    const row = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    if (!row) return null;
    const t = this.now();
    const idleDeadline = Date.parse(row.last_seen_at) + this.policy.idleSeconds * 1000;
    if (t >= Date.parse(row.expires_at) || t >= idleDeadline) {
      await this.db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
      return null;
    }
    // Touch at most once a minute to keep writes off the hot path of polling clients.
    if (t - Date.parse(row.last_seen_at) > 60_000) {
      await this.db
        .updateTable('sessions')
        .set({ last_seen_at: iso(t) })
        .where('id_hash', '=', idHash)
        .execute();
    }
    return { idHash, userId: row.user_id, createdAt: row.created_at, expiresAt: row.expires_at };
  }

  async destroy(idHash: string, db: Db = this.db): Promise<void> {
    await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
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
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }
}
