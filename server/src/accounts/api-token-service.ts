import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  API_TOKEN_MESSAGES,
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenScope,
  type CreateApiTokenRequest,
  type CreateApiTokenResponse,
} from '@fieldline/contracts';
import type { Db } from '../db/database.ts';
import type { ApiTokensTable } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';

/** The secret after `fl_`: 256 random bits, base64url (43 characters). */
const SECRET_BYTES = 32;
const SECRET_PATTERN = /^fl_[A-Za-z0-9_-]{43}$/;
/** last_used_at is written at most this often per token, to keep writes off a polling script's path. */
const TOUCH_EVERY_MS = 60_000;
const DAY_MS = 24 * 3600_000;

/** A token that authenticated a request. */
export interface AuthenticatedToken {
  id: string;
  userId: string;
  name: string;
  scope: ApiTokenScope;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Personal API tokens: created (secret returned once), listed, revoked, and checked on every bearer
 * request. Only HMAC-SHA256(token key, secret) is stored; the token key is derived from the server's
 * secrets file (secrets.ts), which is not in the database, so a leaked database yields no usable token.
 * Every check reads the row, so a revocation or an expiry takes effect on the next request, in every
 * server process.
 */
export class ApiTokenService {
  private readonly key: Buffer;

  constructor(
    private readonly db: Db,
    serverSecret: string,
    private readonly now: () => number = Date.now,
  ) {
    // A key of its own (domain-separated from the session-id hashes that use the same secret).
    this.key = createHmac('sha256', serverSecret).update('fieldline api-token key v1').digest();
  }

  hash(secret: string): string {
    return createHmac('sha256', this.key).update(secret).digest('hex');
  }

  /** Whether a string has the shape of a token secret (checked before any database read). */
  static looksLikeSecret(secret: string): boolean {
    return SECRET_PATTERN.test(secret);
  }

  async create(userId: string, input: CreateApiTokenRequest): Promise<CreateApiTokenResponse> {
    const t = this.now();
    const secret = `${API_TOKEN_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;
    const row: ApiTokensTable = {
      id: randomUUID(),
      user_id: userId,
      name: input.name,
      scope: input.scope,
      secret_hash: this.hash(secret),
      created_at: iso(t),
      expires_at: input.expires_in_days ? iso(t + input.expires_in_days * DAY_MS) : null,
      last_used_at: null,
      revoked_at: null,
    };
    await this.db.insertInto('api_tokens').values(row).execute();
    return {
      id: row.id,
      token: secret,
      name: row.name,
      scope: row.scope,
      created_at: row.created_at,
      expires_at: row.expires_at,
    };
  }

  /** The user's tokens that still work (revoked and expired ones are left out), newest first. */
  async list(userId: string): Promise<ApiToken[]> {
    const rows = await this.db
      .selectFrom('api_tokens')
      .select(['id', 'name', 'scope', 'created_at', 'expires_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', iso(this.now()))]))
      .orderBy('created_at', 'desc')
      .execute();
    return rows;
  }

  /** Revokes one of the user's tokens; someone else's (or an unknown or already revoked one) is a 404. */
  async revoke(userId: string, id: string): Promise<void> {
    const res = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: iso(this.now()) })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw notFound(API_TOKEN_MESSAGES.notFound);
  }

  /** The live token a secret names, or null (unknown, revoked or expired). Records its last use. */
  async authenticate(secret: string): Promise<AuthenticatedToken | null> {
    if (!ApiTokenService.looksLikeSecret(secret)) return null;
    const hash = this.hash(secret);
    const row = await this.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('secret_hash', '=', hash)
      .executeTakeFirst();
    // The lookup is by hash; compare again in constant time so no timing reveals a near match.
    if (!row || !timingSafeEqual(Buffer.from(row.secret_hash), Buffer.from(hash))) return null;
    const t = this.now();
    if (row.revoked_at !== null) return null;
    if (row.expires_at !== null && Date.parse(row.expires_at) <= t) return null;
    if (row.last_used_at === null || Date.parse(row.last_used_at) + TOUCH_EVERY_MS <= t) {
      await this.db
        .updateTable('api_tokens')
        .set({ last_used_at: iso(t) })
        .where('id', '=', row.id)
        .execute();
    }
    return { id: row.id, userId: row.user_id, name: row.name, scope: row.scope };
  }
}
