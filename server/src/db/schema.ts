import type { Generated } from 'kysely';

/** Table types for Kysely. Timestamps are ISO-8601 UTC strings (portable across SQLite and PostgreSQL). */
export interface SessionsTable {
  /** SHA-256 (keyed) of the opaque session id; the raw id exists only in the cookie. */
  id_hash: string;
  user_id: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface JobsTable {
  id: string;
  owner_user_id: string | null;
  owner_session_hash: string | null;
  kind: 'meshing' | 'analysis';
  queue: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  progress: number;
  message: string | null;
  attempts: number;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  worker_id: string | null;
  lease_expires_at: string | null;
  compute_seconds: number | null;
  cost_tokens: number | null;
  error_code: string | null;
  error_message: string | null;
  input_location: string;
  result_location: string | null;
  analysis_type: string;
}

export type UserRole = 'user' | 'admin';
export type UserStatus = 'active' | 'disabled';

export interface UsersTable {
  id: string;
  name: string;
  /** Trimmed, lower-cased. */
  email: string;
  /** As the user typed it (shown). */
  username: string;
  /** Lower-cased username; unique, so "Ada" and "ada" cannot both exist. */
  username_key: string;
  /** Argon2id PHC string. */
  password_hash: string;
  role: UserRole;
  /** The plan the user is on now ('token' until a subscription starts). */
  plan: string;
  /** The plan chosen at sign-up (e.g. 'single' from the landing page's Subscribe button). */
  signup_plan: string;
  status: UserStatus;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  /** Epoch milliseconds when the current window ends. */
  reset_at: number;
}

export interface MigrationsMetaTable {
  id: Generated<number>;
}

export interface Database {
  sessions: SessionsTable;
  jobs: JobsTable;
  users: UsersTable;
  rate_limits: RateLimitsTable;
}
