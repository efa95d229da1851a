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
  // 0004_compute
  cancel_requested: number;
  /** 1 when the user saved the job: its files are kept past the retention period. */
  saved: number;
  /** When the job's files are deleted unless saved (set when the job finishes). */
  expires_at: string | null;
  files_deleted_at: string | null;
  /** The owner's plan when the job was submitted (decides queue, limits and how it is charged). */
  plan_id: string | null;
  /** The estimate checked against the balance at submission; held against it while the job is active. */
  estimate_seconds: number | null;
  cost_hours: number | null;
  model_bytes: number | null;
  /** JSON list of {name, bytes} written by the engine, as stored. */
  result_files: string | null;
  // 0009_job_mesh_hash
  /** sha256 of the analysis mesh (vertices, tetrahedra, unit): fieldsFrom needs the same one. */
  mesh_hash: string | null;
  /** The job whose fields this one takes (fieldsFrom); kept from retention while this one is active. */
  fields_from_job_id: string | null;
  /** 0011_api_tokens: the API token that submitted the job (null: a browser session). */
  api_token_id: string | null;
  api_token_name: string | null;
}

/** One row per attempt at a job: who ran it, when, and how it ended (worker timestamps). */
export interface JobRunsTable {
  id: string;
  job_id: string;
  attempt: number;
  worker_id: string;
  started_at: string;
  finished_at: string | null;
  outcome: 'completed' | 'failed' | 'cancelled' | 'requeued' | 'superseded' | null;
  seconds: number | null;
}

/** Append-only: every change to a user's tokens or subscription hours is one row. */
export interface UsageLedgerTable {
  id: string;
  user_id: string;
  created_at: string;
  entry_type: 'grant' | 'purchase' | 'job_charge' | 'refund' | 'adjustment' | 'subscription_renewal';
  /** Signed token delta: positive credits, negative debits. */
  tokens: number;
  /** Subscription compute hours consumed by this entry (0 for pure token entries). */
  hours: number;
  compute_seconds: number | null;
  job_id: string | null;
  plan_id: string | null;
  /** (source, source_id) is unique, e.g. ('job', jobId), ('welcome', userId), ('checkout', cs_…). */
  source: string;
  source_id: string;
  description: string;
}

/** A user's effective plan for compute and billing (billing writes it when a subscription changes). */
export interface UserPlansTable {
  user_id: string;
  plan_id: string;
  status: string;
  period_start: string | null;
  current_period_end: string | null;
  updated_at: string;
}

/** Queue workers announce themselves here (heartbeat), whichever backend they serve. */
export interface ComputeWorkersTable {
  id: string;
  backend: string;
  host: string;
  slots: number;
  running: number;
  started_at: string;
  last_seen_at: string;
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

export interface UploadsTable {
  id: string;
  owner_user_id: string | null;
  owner_session_hash: string | null;
  original_name: string;
  format: 'step' | 'stl' | 'obj' | 'zip';
  size_bytes: number;
  sha256: string;
  /** Length unit of the model: the STEP file's own, or the one chosen for STL/OBJ. */
  units: string;
  body_count: number;
  triangle_count: number;
  /** Key in upload storage (geometry/upload-store.ts), never a user-supplied name. */
  storage_key: string;
  created_at: string;
  /** 0006_upload_retention: 1 when the user saved it; otherwise deleted RETENTION_HOURS after created_at. */
  saved: number;
}

/** 0011_api_tokens: personal API tokens; the secret itself is never stored, only its keyed hash. */
export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  scope: 'read' | 'run';
  /** HMAC-SHA256 of the secret under the server's token key (secrets.ts). */
  secret_hash: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface Database {
  api_tokens: ApiTokensTable;
  sessions: SessionsTable;
  jobs: JobsTable;
  users: UsersTable;
  rate_limits: RateLimitsTable;
  job_runs: JobRunsTable;
  usage_ledger: UsageLedgerTable;
  user_plans: UserPlansTable;
  compute_workers: ComputeWorkersTable;
  uploads: UploadsTable;
  checkout_sessions: CheckoutSessionsTable;
  billing_customers: BillingCustomersTable;
  subscriptions: SubscriptionsTable;
  processed_events: ProcessedEventsTable;
  batch_submissions: BatchSubmissionsTable;
  studies: StudiesTable;
  study_points: StudyPointsTable;
}

// ---- 0007_batch_submissions ----

/** One AWS Batch SubmitJob for one of our jobs (COMPUTE_BACKEND=aws-batch). */
export interface BatchSubmissionsTable {
  batch_job_id: string;
  job_id: string;
  job_arn: string;
  job_queue: string;
  submitted_at: string;
  /** SUBMITTED | PENDING | RUNNABLE | STARTING | RUNNING | SUCCEEDED | FAILED, as last described. */
  batch_status: string;
  status_reason: string | null;
  started_at: string | null;
  stopped_at: string | null;
}

// ---- 0005_billing ----

/** One purchase attempt (tokens or a subscription), whichever provider runs the checkout. */
export interface CheckoutSessionsTable {
  /** Ours (`chk_…`); Stripe idempotency keys and the ledger's source id derive from it. */
  id: string;
  user_id: string;
  provider: 'stripe' | 'local';
  kind: 'tokens' | 'subscription';
  plan_id: string | null;
  /** Tokens bought (1 for a subscription). */
  quantity: number;
  amount_cents: number;
  currency: string;
  status: 'open' | 'completed' | 'cancelled' | 'expired' | 'failed';
  /** The provider's session id (cs_… for Stripe). */
  external_id: string | null;
  url: string | null;
  created_at: string;
  expires_at: string;
  completed_at: string | null;
}

/** The provider's customer for a user (Stripe cus_…), created at the first checkout. */
export interface BillingCustomersTable {
  user_id: string;
  provider: 'stripe' | 'local';
  customer_id: string;
  created_at: string;
}

/** A subscription as its provider last reported it (Stripe sub_…, or the built-in lsub_…). */
export interface SubscriptionsTable {
  id: string;
  user_id: string;
  provider: 'stripe' | 'local';
  plan_id: string;
  price_id: string | null;
  customer_id: string | null;
  /** Stripe's status: active, trialing, past_due, unpaid, canceled, incomplete, incomplete_expired, paused. */
  status: string;
  current_period_start: string | null;
  current_period_end: string | null;
  cancel_at_period_end: number;
  created_at: string;
  updated_at: string;
}

/** Webhook events applied (or deliberately ignored); the id makes a replay a no-op. */
export interface ProcessedEventsTable {
  id: string;
  provider: string;
  type: string;
  event_created: string;
  processed_at: string;
  outcome: string;
}

// ---- 0010_studies ----

/** A design study (docs/studies.md). `spec` is the request without the mesh (JSON); the mesh is at `base_location`. */
export interface StudiesTable {
  id: string;
  owner_user_id: string;
  name: string;
  kind: 'sweep' | 'convergence';
  analysis_type: string;
  status: 'running' | 'completed' | 'cancelled';
  spec: string;
  /** the stored base input (mesh_data and config); deleted once every point has its own job input */
  base_location: string | null;
  upload_id: string | null;
  plan_id: string;
  queue: string;
  estimate_seconds: number;
  model_bytes: number;
  created_at: string;
  finished_at: string | null;
  /** convergence report (JSON) */
  report: string | null;
}

/** One point of a study: its parameter values and, once released, its job. */
export interface StudyPointsTable {
  study_id: string;
  idx: number;
  /** path → value (JSON) */
  parameters: string;
  status: 'pending' | 'meshing' | 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  estimate_seconds: number;
  mesh_job_id: string | null;
  job_id: string | null;
  /** {values: name → number|null, errors: name → text} (JSON) */
  outputs: string | null;
  error: string | null;
  tetrahedra: number | null;
  finished_at: string | null;
}
