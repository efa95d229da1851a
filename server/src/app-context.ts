import type { FastifyBaseLogger } from 'fastify';
import type { AccountService } from './accounts/account-service.ts';
import type { Billing } from './billing/billing.ts';
import type { Compute } from './compute.ts';
import type { AppConfig } from './config.ts';
import type { Db, DbDialect } from './db/database.ts';
import type { EngineHealthProbe } from './engine/engine-health.ts';
import type { EngineLocation } from './engine/engine-runner.ts';
import type { UploadService } from './geometry/upload-service.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import type { JobService } from './jobs/job-service.ts';
import type { PgStatusFeed } from './jobs/status-feed.ts';
import type { MaterialLibrary } from './materials/material-library.ts';
import type { AppSecrets } from './secrets.ts';
import type { SessionCookieOptions } from './sessions/session-plugin.ts';
import type { SessionService } from './sessions/session-service.ts';
import type { StudyScheduler } from './studies/study-scheduler.ts';

/**
 * What buildApp builds, handed back to main.ts and the tests. Routes and services never take it whole: each
 * is given the collaborators it uses (see buildApp).
 */
export interface AppContext {
  config: AppConfig;
  secrets: AppSecrets;
  db: Db;
  dialect: DbDialect;
  log: FastifyBaseLogger;
  sessions: SessionService;
  sessionCookie: SessionCookieOptions;
  accounts: AccountService;
  engine: EngineLocation;
  engineHealth: EngineHealthProbe;
  jobs: JobService;
  /** Other processes' job updates into `jobs.statusCache` (PostgreSQL LISTEN/NOTIFY); null on SQLite. */
  statusFeed: PgStatusFeed | null;
  queue: JobQueue;
  /** Plans, storage, ledger, metering, worker registry (issue 8). */
  compute: Compute;
  uploads: UploadService;
  /** Checkout (Stripe or built-in), fulfilment, subscriptions (issue 9). */
  billing: Billing;
  /** The material library (built-in + MATERIALS_FILE). */
  materials: MaterialLibrary;
  /** Moves design studies along (started with the queue; set once the services are built). */
  studyScheduler?: StudyScheduler;
}
