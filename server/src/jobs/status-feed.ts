import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { JOB_STATUS_CHANNEL } from '../db/migrations/0008_job_status_notify.ts';
import type { JobSnapshot, JobStatusCache } from './job-status-cache.ts';

export interface StatusFeedOptions {
  /** First wait before reconnecting after the connection is lost; doubles up to `maxRetryMs`. */
  minRetryMs: number;
  maxRetryMs: number;
}

const DEFAULTS: StatusFeedOptions = { minRetryMs: 200, maxRetryMs: 5_000 };

/** What the feed has done since it started (tests and logs). */
export interface StatusFeedCounters {
  /** Connections that reached LISTEN (the first one included). */
  connects: number;
  messages: number;
  /** Messages that updated a cached snapshot (the rest were for jobs nobody polls here). */
  applied: number;
}

/**
 * Feeds this API process's status cache from the other processes' job updates, on PostgreSQL: the
 * `jobs_status_notify` trigger (migration 0008) sends every committed change of a job's status columns
 * on `fieldline_job_status`, and this holds one dedicated connection (not a pooled one) that LISTENs.
 * When the connection is lost the cache falls back to short re-reads; on reconnect it drops every
 * snapshot it did not write itself (messages sent meanwhile are lost), so each is read once again.
 */
export class PgStatusFeed {
  private client: pg.Client | null = null;
  private retryMs: number;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  readonly counters: StatusFeedCounters = { connects: 0, messages: 0, applied: 0 };
  /** Told of every job's new status (final states only), cached here or not: e.g. a study's point finished elsewhere. */
  readonly onStatus: Array<(jobId: string, status: string) => void> = [];
  private readonly options: StatusFeedOptions;

  constructor(
    private readonly databaseUrl: string,
    private readonly cache: JobStatusCache,
    private readonly log: FastifyBaseLogger,
    options: Partial<StatusFeedOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.retryMs = this.options.minRetryMs;
  }

  /** Connects and listens; if the database is not reachable yet it keeps retrying in the background. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    this.cache.feedLost();
    await client?.end().catch(() => undefined);
  }

  /** The listening connection's server process id (tests cut it with pg_terminate_backend). */
  get backendPid(): number | null {
    const pid = (this.client as (pg.Client & { processID?: number }) | null)?.processID;
    return typeof pid === 'number' ? pid : null;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: 'fieldline-status-feed',
      keepAlive: true,
    });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      this.cache.feedLost();
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.log.warn(
        { err, retryMs: this.retryMs },
        'status feed: connection lost; polls re-read jobs from the database until it is back',
      );
      this.retryLater();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (msg) => {
      if (msg.channel === JOB_STATUS_CHANNEL && msg.payload) this.apply(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${JOB_STATUS_CHANNEL}`);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    if (lost || this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = this.options.minRetryMs;
    this.counters.connects++;
    // Listening from here on: whatever was cached before may have missed a message.
    this.cache.feedConnected();
    if (this.counters.connects > 1) this.log.info('status feed: listening again');
  }

  private retryLater(): void {
    if (this.timer || this.stopped) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.options.maxRetryMs, this.retryMs * 2);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, wait);
    this.timer.unref();
  }

  private apply(payload: string): void {
    this.counters.messages++;
    let message: Partial<JobSnapshot> & { id?: string; deleted?: boolean; truncated?: boolean };
    try {
      message = JSON.parse(payload);
    } catch {
      return;
    }
    if (typeof message.id !== 'string') return;
    if (message.status === 'completed' || message.status === 'failed' || message.status === 'cancelled')
      for (const listener of this.onStatus) listener(message.id, message.status);
    if (message.deleted || message.truncated || typeof message.status !== 'string') {
      this.cache.invalidateFed(message.id);
      return;
    }
    const applied = this.cache.putFed({
      id: message.id,
      owner_user_id: message.owner_user_id ?? null,
      owner_session_hash: message.owner_session_hash ?? null,
      kind: message.kind as JobSnapshot['kind'],
      status: message.status,
      progress: Number(message.progress ?? 0),
      message: message.message ?? null,
      error_message: message.error_message ?? null,
      result_location: message.result_location ?? null,
      files_deleted_at: message.files_deleted_at ?? null,
    });
    if (applied) this.counters.applied++;
  }
}
