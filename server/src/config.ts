import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';

/** Repository root: server/src/config.ts → ../.. */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

export interface AppConfig {
  host: string;
  port: number;
  /** The origin browsers use to reach the app; CSRF checks compare against it. */
  publicOrigin: string;
  dataDir: string;
  /** `sqlite:<file>` or `postgres://…` */
  databaseUrl: string;
  redisUrl: string | null;
  /** COMPUTE_BACKEND; unset: `bullmq` when REDIS_URL is set, else `embedded`. */
  computeBackend: 'embedded' | 'bullmq' | 'aws-batch';
  /** AWS Batch (COMPUTE_BACKEND=aws-batch, issue 23). */
  batch: BatchConfig;
  webDistDir: string;
  enginePython: string;
  engineDir: string;
  jobSlots: number;
  jobTimeoutSeconds: number;
  jobMemoryLimitMb: number;
  /** MPI_SLOTS: ranks this worker may start for one full-wave job (1: no MPI; docs/distributed.md). */
  mpiSlots: number;
  /** MPI_HOSTFILE: mpiexec's hostfile for ranks on several machines; unset: all ranks on this one. */
  mpiHostfile: string | null;
  /** The server's cap on any upload (MB); plans and the guest limit apply below it (geometry/upload-limits.ts). */
  maxUploadMb: number;
  /** Limits of the engine process that parses an upload (convert-step). */
  convertTimeoutSeconds: number;
  convertMemoryLimitMb: number;
  /** Most bytes a ZIP upload may expand to. */
  zipMaxExpandedMb: number;
  /** Run engine processes without network access (`unshare -n`) when the system allows it. */
  engineNetworkIsolation: 'auto' | 'off';
  /** Engine processes kept started and warmed up, waiting for a job (engine-standby.ts). */
  engineStandby: number;
  /**
   * ENGINE_FORK_SERVER: one warmed-up engine process forks those spares (engine-fork-server.ts), so a
   * spare costs milliseconds of CPU, not ≈ 1 s; off: each spare imports and warms up by itself.
   */
  engineForkServer: boolean;
  /**
   * ENGINE_SPARE_LAUNCHER: 'native' (default) starts each forked spare through the compiled launcher
   * (engine/launcher, ≈ 1 ms of CPU) when it is built, 'python' through spare_launcher.py (≈ 20–30 ms).
   */
  engineSpareLauncher: 'native' | 'python';
  secureCookies: boolean;
  logLevel: string;
  trustProxy: boolean;
  compute: ComputeConfig;
  /** Materials added to (or replacing) the built-in library, JSON or YAML; absent file = built-ins only. */
  materialsFile: string | null;
  storage: StorageConfig;
  billing: BillingConfig;
  /** Requests per minute per API token and per IP for bearer requests (API_TOKEN_RATE_PER_MINUTE, API_TOKEN_IP_RATE_PER_MINUTE). */
  apiTokenRateLimits: { perToken: number; perIp: number };
}

/** Checkout and subscriptions (issue 9): Stripe when STRIPE_SECRET_KEY is set, else the built-in test checkout. */
export interface BillingConfig {
  stripeSecretKey: string | null;
  /** Signing secret of the webhook endpoint (whsec_…); required with a secret key (fail closed). */
  stripeWebhookSecret: string | null;
  /** Another address for Stripe's API (a stand-in in tests); unset, the SDK's own. */
  stripeApiBase: string | null;
  /** The built-in test-mode checkout when Stripe is not configured (grants without payment). */
  localCheckout: boolean;
  /** How long an unpaid checkout stays open (Stripe's own limit is 24 h). */
  checkoutTtlHours: number;
}

/** AWS Batch backend: job queues, the job definition running `fieldline batch-run <jobId>`, polling. */
export interface BatchConfig {
  region: string;
  jobQueue: string | null;
  priorityJobQueue: string | null;
  jobDefinition: string | null;
  /** Another Batch endpoint (moto in tests); unset, the SDK's own. */
  endpoint: string | null;
  /** How often the server polls DescribeJobs and re-submits lost jobs; 0 = only when poll() is called (tests). */
  pollSeconds: number;
}

/** Queue, limits, metering and retention (issue 8). */
export interface ComputeConfig {
  /** Plans catalog (JSON or YAML). */
  plansFile: string;
  /** Tokens charged per compute-hour on the token plan (and per overage hour before token_cost). */
  tokensPerComputeHour: number;
  /** Tokens every new account receives (open beta), recorded in the ledger. */
  welcomeGrantTokens: number;
  /** A job whose worker was lost is started at most this many times in all. */
  maxAttempts: number;
  /** A running job's lease; a worker renews it while the engine runs. */
  leaseSeconds: number;
  /** How long a stopping server or worker lets running jobs finish before re-queueing them. */
  shutdownGraceSeconds: number;
  /** The smallest estimate a job is checked against before it is queued. */
  minEstimateSeconds: number;
  /** Largest submitted model for visitors without an account (signed-in users: their plan's max_file_size_mb). */
  guestMaxModelMb: number;
  /** Local directory where workers stage a job's files for the engine. */
  workDir: string;
  /** Uploads and results are deleted this long after they were created/finished unless saved. */
  retentionHours: number;
  /** Memory for completed jobs' compressed status replies (least recently used go first). */
  statusReplyCacheMb: number;
  /**
   * STATUS_FEED: on PostgreSQL, LISTEN for other processes' job updates (jobs/status-feed.ts); `off`
   * (e.g. behind a transaction-pooling proxy that cannot hold a LISTEN) re-reads other processes' jobs
   * once a second per job instead.
   */
  statusFeed: boolean;
  retentionSweepSeconds: number;
  /** Test-only: lets the engine honour `test_hooks` in job input (never set in production). */
  engineTestHooks: boolean;
}

export interface StorageConfig {
  backend: 'local' | 's3';
  /** local: the directory holding encrypted objects. */
  dir: string;
  s3Bucket: string | null;
  s3Endpoint: string | null;
  s3Region: string;
  s3ForcePathStyle: boolean;
  /** Overrides secrets.json's storageKey (hex, 32 bytes): workers on other machines need the same key. */
  keyHex: string | null;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
}

function num(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

function path(raw: string): string {
  return isAbsolute(raw) ? raw : resolve(REPO_ROOT, raw);
}

/**
 * Reads the environment into a typed config. Every variable and its default is listed in
 * the README's configuration table; keep the two in step.
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const port = int(env, 'PORT', 8080);
  const dataDir = path(env.DATA_DIR ?? 'data');
  const publicOrigin = (env.PUBLIC_ORIGIN ?? `http://localhost:${port}`).replace(/\/$/, '');
  const jobSlots = int(env, 'JOB_SLOTS', Math.max(1, availableParallelism()));
  const engineForkServer = bool(env, 'ENGINE_FORK_SERVER', true);
  return {
    host: env.HOST ?? '127.0.0.1',
    port,
    publicOrigin,
    dataDir,
    databaseUrl: env.DATABASE_URL ?? `sqlite:${resolve(dataDir, 'fieldline.sqlite')}`,
    redisUrl: env.REDIS_URL || null,
    computeBackend: computeBackend(env.COMPUTE_BACKEND, env.REDIS_URL),
    batch: {
      region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
      jobQueue: env.BATCH_JOB_QUEUE || null,
      priorityJobQueue: env.BATCH_PRIORITY_JOB_QUEUE || null,
      jobDefinition: env.BATCH_JOB_DEFINITION || null,
      endpoint: env.BATCH_ENDPOINT || null,
      pollSeconds: Math.max(0, num(env, 'BATCH_POLL_SECONDS', 5)),
    },
    webDistDir: path(env.WEB_DIST_DIR ?? 'web/dist'),
    enginePython: path(env.ENGINE_PYTHON ?? '.venv/bin/python'),
    engineDir: path(env.ENGINE_DIR ?? 'engine'),
    jobSlots,
    jobTimeoutSeconds: int(env, 'JOB_TIMEOUT_SECONDS', 3600),
    jobMemoryLimitMb: int(env, 'JOB_MEMORY_LIMIT_MB', 8192),
    mpiSlots: Math.max(1, int(env, 'MPI_SLOTS', 1)),
    mpiHostfile: env.MPI_HOSTFILE ? path(env.MPI_HOSTFILE) : null,
    maxUploadMb: int(env, 'MAX_UPLOAD_MB', 1024),
    convertTimeoutSeconds: int(env, 'CONVERT_TIMEOUT_SECONDS', 120),
    convertMemoryLimitMb: int(env, 'CONVERT_MEMORY_LIMIT_MB', 4096),
    zipMaxExpandedMb: int(env, 'ZIP_MAX_EXPANDED_MB', 1024),
    engineNetworkIsolation: env.ENGINE_NETWORK_ISOLATION === 'off' ? 'off' : 'auto',
    engineForkServer,
    engineSpareLauncher: env.ENGINE_SPARE_LAUNCHER === 'python' ? 'python' : 'native',
    // A forked spare is cheap (no import, a few MB of its own): one per job slot, so jobs that start
    // together each find one. Without the fork server each costs ≈ 1 CPU-second and 170 MB: one.
    engineStandby: Math.max(0, int(env, 'ENGINE_STANDBY', engineForkServer ? jobSlots : 1)),
    secureCookies: bool(env, 'SECURE_COOKIES', publicOrigin.startsWith('https://')),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: bool(env, 'TRUST_PROXY', false),
    materialsFile: path(env.MATERIALS_FILE ?? 'config/materials.yaml'),
    apiTokenRateLimits: {
      perToken: Math.max(1, int(env, 'API_TOKEN_RATE_PER_MINUTE', 600)),
      perIp: Math.max(1, int(env, 'API_TOKEN_IP_RATE_PER_MINUTE', 1200)),
    },
    compute: {
      plansFile: path(env.PLANS_FILE ?? 'config/plans.yaml'),
      tokensPerComputeHour: num(env, 'TOKENS_PER_COMPUTE_HOUR', 1),
      welcomeGrantTokens: num(env, 'WELCOME_GRANT_TOKENS', 2),
      maxAttempts: Math.max(1, int(env, 'JOB_MAX_ATTEMPTS', 2)),
      leaseSeconds: Math.max(2, int(env, 'JOB_LEASE_SECONDS', 60)),
      shutdownGraceSeconds: num(env, 'SHUTDOWN_GRACE_SECONDS', 30),
      minEstimateSeconds: num(env, 'JOB_MIN_ESTIMATE_SECONDS', 60),
      guestMaxModelMb: num(env, 'GUEST_MAX_MODEL_MB', 25),
      workDir: path(env.WORK_DIR ?? resolve(dataDir, 'work')),
      retentionHours: num(env, 'RETENTION_HOURS', 24),
      statusReplyCacheMb: num(env, 'STATUS_REPLY_CACHE_MB', 256),
      statusFeed: env.STATUS_FEED !== 'off',
      retentionSweepSeconds: Math.max(1, int(env, 'RETENTION_SWEEP_SECONDS', 600)),
      engineTestHooks: bool(env, 'ENGINE_TEST_HOOKS', false),
    },
    billing: billingConfig(env),
    storage: {
      backend: storageBackend(env.STORAGE_BACKEND),
      dir: path(env.STORAGE_DIR ?? resolve(dataDir, 'objects')),
      s3Bucket: env.S3_BUCKET || null,
      s3Endpoint: env.S3_ENDPOINT || null,
      s3Region: env.S3_REGION || env.AWS_REGION || 'us-east-1',
      s3ForcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', Boolean(env.S3_ENDPOINT)),
      keyHex: env.STORAGE_KEY || null,
    },
  };
}

function computeBackend(raw: string | undefined, redisUrl: string | undefined): AppConfig['computeBackend'] {
  if (!raw) return redisUrl ? 'bullmq' : 'embedded';
  if (raw === 'embedded' || raw === 'bullmq' || raw === 'aws-batch') return raw;
  throw new Error(`COMPUTE_BACKEND must be embedded, bullmq or aws-batch (got ${raw})`);
}

function storageBackend(raw: string | undefined): 'local' | 's3' {
  if (raw === undefined || raw === '' || raw === 'local') return 'local';
  if (raw === 's3') return 's3';
  throw new Error(`STORAGE_BACKEND must be "local" or "s3", got "${raw}"`);
}

function billingConfig(env: Env): BillingConfig {
  const stripeSecretKey = env.STRIPE_SECRET_KEY || null;
  const stripeWebhookSecret = env.STRIPE_WEBHOOK_SECRET || null;
  // Fail closed: without the signing secret no webhook can be trusted, and without webhooks nothing is fulfilled.
  if (stripeSecretKey && !stripeWebhookSecret)
    throw new Error(
      'STRIPE_WEBHOOK_SECRET must be set when STRIPE_SECRET_KEY is (the webhook signing secret, whsec_…)',
    );
  return {
    stripeSecretKey,
    stripeWebhookSecret,
    stripeApiBase: env.STRIPE_API_BASE || null,
    localCheckout: bool(env, 'LOCAL_CHECKOUT', true),
    checkoutTtlHours: Math.min(24, Math.max(1, num(env, 'CHECKOUT_TTL_HOURS', 24))),
  };
}
