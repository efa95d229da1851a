import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type Db, durableWrite, softWrite } from '../db/database.ts';
import type { Database, JobRunsTable, JobsTable } from '../db/schema.ts';
import type { JobMetering } from './job-metering.ts';
import type { JobOwner } from './job-owner.ts';
import { type CachedSnapshot, JobStatusCache, SNAPSHOT_COLUMNS } from './job-status-cache.ts';
import type { JobStorage, StoredFile } from './job-storage.ts';

export type JobRow = JobsTable;
export type JobKind = JobsTable['kind'];
export type JobStatus = JobsTable['status'];

export interface NewJob {
  /** A caller-chosen id (a study point records it before the row exists); a new UUID otherwise. */
  id?: string;
  owner: JobOwner;
  kind: JobKind;
  analysisType: string;
  queue: string;
  /** The engine's job.json: an object, or its JSON bytes already serialised. */
  input: unknown;
  planId?: string | null;
  estimateSeconds?: number | null;
  modelBytes?: number | null;
  /** Extra input files the engine needs beside job.json (e.g. the uploaded CAD file to mesh). */
  inputFiles?: { name: string; body: Buffer }[];
  /** The analysis mesh's content hash (fea/mesh-hash.ts). */
  meshHash?: string | null;
  /** The job whose fields this one takes (fieldsFrom), checked by the caller. */
  fieldsFromJobId?: string | null;
}

/** How a run ended, as the worker saw it. */
export type RunOutcome =
  | { status: 'completed'; message?: string; files: StoredFile[] }
  | { status: 'failed'; code: string; message: string }
  | { status: 'cancelled'; message: string };

export type ClaimResult =
  | { claimed: true; job: JobRow }
  | { claimed: false; reason: 'finished' | 'held' | 'missing' | 'exhausted'; retryAt?: number };

const iso = (ms: number) => new Date(ms).toISOString();
const ACTIVE: JobStatus[] = ['queued', 'running'];

/**
 * The jobs table is the source of truth for every job; queues only carry ids. Every state change is a
 * conditional UPDATE (on status, worker and attempt), so a duplicate delivery, a late worker or a
 * second server can never move a job twice; the final state and the charge share one transaction.
 */
export class JobService {
  /** Status and progress as this process last wrote or read them (status polls read it, not the DB). */
  readonly statusCache: JobStatusCache;
  /** Called after a run's outcome is recorded (e.g. to build the completed status reply once). */
  readonly onFinished: Array<(jobId: string, status: RunOutcome['status']) => void> = [];
  /** Status reads in flight, by job id (see `readStatus`). */
  private readonly statusReads = new Map<
    string,
    { changes: number; promise: Promise<CachedSnapshot | null> }
  >();

  constructor(
    private readonly db: Db,
    readonly files: JobStorage,
    private readonly metering: JobMetering,
    private readonly policy: { maxAttempts: number; retentionHours: number },
    statusCache: JobStatusCache = new JobStatusCache(),
  ) {
    this.statusCache = statusCache;
  }

  async create(job: NewJob): Promise<JobRow> {
    const id = job.id ?? randomUUID();
    // The input files are written at once (each write is several thread-pool round trips, and a
    // submit waits for each behind the event loop's other work), before the row a worker claims.
    const input = Buffer.isBuffer(job.input) ? job.input : Buffer.from(JSON.stringify(job.input));
    const writes = await Promise.allSettled([
      this.files.putInput(id, input),
      ...(job.inputFiles ?? []).map((file) => this.files.putInputFile(id, file.name, file.body)),
    ]);
    const failed = writes.find((w) => w.status === 'rejected');
    if (failed) {
      await this.files.removeAll(id);
      throw failed.reason;
    }
    const inputLocation = (writes[0] as PromiseFulfilledResult<string>).value;
    const row: JobRow = {
      id,
      owner_user_id: job.owner.userId,
      owner_session_hash: job.owner.sessionHash,
      kind: job.kind,
      queue: job.queue,
      status: 'queued',
      progress: 0,
      message: 'Queued',
      attempts: 0,
      queued_at: iso(Date.now()),
      started_at: null,
      finished_at: null,
      worker_id: null,
      lease_expires_at: null,
      compute_seconds: null,
      cost_tokens: null,
      error_code: null,
      error_message: null,
      input_location: inputLocation,
      result_location: null,
      analysis_type: job.analysisType,
      cancel_requested: 0,
      saved: 0,
      expires_at: null,
      files_deleted_at: null,
      plan_id: job.planId ?? null,
      estimate_seconds: job.estimateSeconds ?? null,
      cost_hours: null,
      model_bytes: job.modelBytes ?? null,
      result_files: null,
      mesh_hash: job.meshHash ?? null,
      fields_from_job_id: job.fieldsFromJobId ?? null,
      api_token_id: job.owner.apiToken?.id ?? null,
      api_token_name: job.owner.apiToken?.name ?? null,
    };
    // Kept before the row exists: the embedded queue may claim the job as soon as the row is committed.
    this.files.keepInput(id, input, job.inputFiles);
    let committed = false;
    try {
      // Durable before the reply (the user is told the job exists), without an fsync on the event loop.
      await durableWrite(this.db, async (db) => {
        await db.insertInto('jobs').values(row).execute();
        committed = true;
      });
    } catch (err) {
      if (!committed) {
        this.files.dropKept(id);
        await this.files.removeAll(id); // no orphaned input when the row cannot be written
      }
      throw err;
    }
    this.statusCache.putRead(row);
    return row;
  }

  /** The job if `owner` owns it; otherwise null, so callers answer 404 rather than 403. */
  async findOwned(id: string, owner: JobOwner): Promise<JobRow | null> {
    let q = this.db.selectFrom('jobs').selectAll().where('id', '=', id);
    q = owner.userId
      ? q.where('owner_user_id', '=', owner.userId)
      : q.where('owner_session_hash', '=', owner.sessionHash ?? '').where('owner_user_id', 'is', null);
    return (await q.executeTakeFirst()) ?? null;
  }

  async get(id: string): Promise<JobRow | null> {
    return (await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  /**
   * A job's status read from the database into the status cache (null: no such job). The cache is told
   * when the read started, so a status feed message that overtakes it is never hidden by it for long.
   */
  readStatus(id: string): Promise<CachedSnapshot | null> {
    // Polls that miss at once (a snapshot just expired under many pollers) share one read, unless the
    // cache heard of a change since it started (then the read may predate it: a new one is made).
    const changes = this.statusCache.changes;
    const shared = this.statusReads.get(id);
    if (shared && shared.changes === changes) return shared.promise;
    const promise = this.readStatusRow(id).finally(() => {
      if (this.statusReads.get(id)?.promise === promise) this.statusReads.delete(id);
    });
    this.statusReads.set(id, { changes, promise });
    return promise;
  }

  private async readStatusRow(id: string): Promise<CachedSnapshot | null> {
    const read = this.statusCache.beginRead(id);
    let row: JobRow | null;
    try {
      row = await this.get(id);
    } catch (err) {
      this.statusCache.endRead(read);
      throw err;
    }
    if (!row) {
      this.statusCache.endRead(read);
      this.statusCache.invalidate(id);
      return null;
    }
    return this.statusCache.putRead(row, read);
  }

  /** Embedded queue: claims the next queued job, `priority` queue first, then oldest first. */
  async claimNext(workerId: string, leaseSeconds: number): Promise<JobRow | null> {
    for (let tries = 0; tries < 5; tries++) {
      const next = await this.db
        .selectFrom('jobs')
        .select('id')
        .where('status', '=', 'queued')
        .orderBy((eb) => eb.case().when('queue', '=', 'priority').then(0).else(1).end())
        .orderBy('queued_at')
        .limit(1)
        .executeTakeFirst();
      if (!next) return null;
      const result = await this.claim(next.id, workerId, leaseSeconds);
      if (result.claimed) return result.job;
    }
    return null;
  }

  /**
   * Starts an attempt at a job for `workerId`: a queued job, or a running one whose lease has
   * expired (its worker died). Anything else is refused, which makes duplicate deliveries harmless.
   */
  async claim(jobId: string, workerId: string, leaseSeconds: number): Promise<ClaimResult> {
    const job = await this.get(jobId);
    if (!job) return { claimed: false, reason: 'missing' };
    if (!ACTIVE.includes(job.status)) return { claimed: false, reason: 'finished' };
    const t = Date.now();
    if (job.status === 'running' && job.lease_expires_at && job.lease_expires_at > iso(t)) {
      return { claimed: false, reason: 'held', retryAt: Date.parse(job.lease_expires_at) };
    }
    if (job.attempts >= this.policy.maxAttempts) {
      await this.failExhausted(job);
      return { claimed: false, reason: 'exhausted' };
    }
    const attempt = job.attempts + 1;
    const claimed = await this.db.transaction().execute(async (trx) => {
      let q = trx
        .updateTable('jobs')
        .set({
          status: 'running',
          started_at: iso(t),
          worker_id: workerId,
          attempts: attempt,
          lease_expires_at: iso(t + leaseSeconds * 1000),
          message: attempt > 1 ? `Starting (attempt ${attempt})` : 'Starting',
        })
        .where('id', '=', jobId)
        .where('attempts', '=', job.attempts);
      q =
        job.status === 'queued'
          ? q.where('status', '=', 'queued')
          : q.where('status', '=', 'running').where('lease_expires_at', '<=', iso(t));
      // The row as the update left it (nothing else in this transaction writes it): no second read.
      const row = await q.returningAll().executeTakeFirst();
      if (!row) return null;
      if (job.status === 'running' && job.worker_id) {
        await trx
          .updateTable('job_runs')
          .set({ outcome: 'superseded', finished_at: iso(t) })
          .where('job_id', '=', jobId)
          .where('attempt', '=', job.attempts)
          .where('outcome', 'is', null)
          .execute();
      }
      await trx
        .insertInto('job_runs')
        .values({
          id: randomUUID(),
          job_id: jobId,
          attempt,
          worker_id: workerId,
          started_at: iso(t),
          finished_at: null,
          outcome: null,
          seconds: null,
        })
        .execute();
      return row;
    });
    if (!claimed) return { claimed: false, reason: 'held', retryAt: t + 1000 };
    this.statusCache.putLocal(claimed);
    return { claimed: true, job: claimed };
  }

  /**
   * Extends the lease of a job this worker is running, optionally with progress. Returns whether the
   * worker still holds the job and whether the user asked to cancel it.
   */
  async renewLease(
    job: Pick<JobRow, 'id' | 'attempts'>,
    workerId: string,
    leaseSeconds: number,
    progress?: { percent: number; message?: string },
  ): Promise<{ held: boolean; cancelRequested: boolean }> {
    const { held, row } = await softWrite(this.db, async (db) => {
      const res = await db
        .updateTable('jobs')
        .set({
          lease_expires_at: iso(Date.now() + leaseSeconds * 1000),
          ...(progress ? { progress: progress.percent, message: progress.message ?? null } : {}),
        })
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('worker_id', '=', workerId)
        .where('attempts', '=', job.attempts)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return { held: false, row: undefined };
      // The row as it is now (also another process's cancel request) refreshes the status cache.
      const now = await db
        .selectFrom('jobs')
        .select([...SNAPSHOT_COLUMNS, 'cancel_requested'])
        .where('id', '=', job.id)
        .executeTakeFirst();
      return { held: true, row: now };
    });
    if (!held) {
      this.statusCache.invalidate(job.id);
      return { held, cancelRequested: false };
    }
    if (row) this.statusCache.putLocal(row);
    else this.statusCache.invalidate(job.id);
    return { held, cancelRequested: Number(row?.cancel_requested ?? 0) === 1 };
  }

  /**
   * Records how an attempt ended and charges the owner, in one transaction. Only the worker that
   * holds the current attempt can finish it; anyone else gets false and changes nothing.
   */
  async finish(
    job: JobRow,
    workerId: string,
    outcome: RunOutcome,
    /** `cores`: MPI ranks × threads per rank the run used (charged per core-hour; default 1). */
    timing: { startedAt: number; finishedAt: number; cores?: number },
  ): Promise<boolean> {
    const seconds = Math.max(0, (timing.finishedAt - timing.startedAt) / 1000);
    const errorCode =
      outcome.status === 'failed' ? outcome.code : outcome.status === 'cancelled' ? 'cancelled' : null;
    const message = outcome.status === 'completed' ? (outcome.message ?? 'Completed') : outcome.message;
    const finishedAt = iso(timing.finishedAt);
    const recorded = await this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('jobs')
        .set({
          status: outcome.status,
          progress: outcome.status === 'completed' ? 100 : undefined,
          message,
          error_code: errorCode,
          error_message: outcome.status === 'completed' ? null : outcome.message,
          finished_at: finishedAt,
          compute_seconds: seconds,
          lease_expires_at: null,
          expires_at: iso(timing.finishedAt + this.policy.retentionHours * 3600_000),
          result_location:
            outcome.status === 'completed' && outcome.files.some((f) => f.name === 'results.json')
              ? this.files.resultKey(job.id, 'results.json')
              : null,
          result_files: outcome.status === 'completed' ? JSON.stringify(outcome.files) : null,
        })
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('worker_id', '=', workerId)
        .where('attempts', '=', job.attempts)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      await this.closeRun(trx, job, { finished_at: finishedAt, outcome: outcome.status, seconds });
      const charge = await this.metering.chargeJob(trx, job, {
        status: outcome.status,
        errorCode,
        seconds,
        cores: timing.cores,
      });
      await trx
        .updateTable('jobs')
        .set({ cost_tokens: charge.tokens, cost_hours: charge.hours })
        .where('id', '=', job.id)
        .execute();
      return true;
    });
    this.statusCache.invalidate(job.id);
    if (recorded)
      for (const listener of this.onFinished) {
        try {
          listener(job.id, outcome.status);
        } catch {
          // a listener's failure (a cache warm-up) never undoes or fails the recorded outcome
        }
      }
    return recorded;
  }

  /**
   * Puts a running job back in the queue without counting the attempt (graceful shutdown: the job
   * was not at fault and nothing is charged).
   */
  async requeue(job: JobRow, workerId: string, message: string): Promise<boolean> {
    const requeued = await this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('jobs')
        .set({
          status: 'queued',
          attempts: Math.max(0, job.attempts - 1),
          worker_id: null,
          lease_expires_at: null,
          started_at: null,
          progress: 0,
          message,
        })
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('worker_id', '=', workerId)
        .where('attempts', '=', job.attempts)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      await this.closeRun(trx, job, { outcome: 'requeued', finished_at: iso(Date.now()) });
      return true;
    });
    this.statusCache.invalidate(job.id);
    return requeued;
  }

  /**
   * The user asks to stop a job: a queued job is cancelled at once (nothing was used, nothing is
   * charged); a running one is flagged and its worker stops the engine at its next heartbeat.
   */
  async requestCancel(job: JobRow): Promise<JobStatus | 'cancelling'> {
    try {
      return await this.requestCancelRow(job);
    } finally {
      this.statusCache.invalidate(job.id);
    }
  }

  private async requestCancelRow(job: JobRow): Promise<JobStatus | 'cancelling'> {
    if (job.status === 'queued') {
      const now = Date.now();
      const res = await this.db
        .updateTable('jobs')
        .set({
          status: 'cancelled',
          message: 'Job cancelled',
          error_code: 'cancelled',
          error_message: 'Job cancelled',
          finished_at: iso(now),
          compute_seconds: 0,
          cost_tokens: 0,
          cost_hours: 0,
          expires_at: iso(now + this.policy.retentionHours * 3600_000),
        })
        .where('id', '=', job.id)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) return 'cancelled';
    }
    const res = await this.db
      .updateTable('jobs')
      .set({ cancel_requested: 1, message: 'Cancelling' })
      .where('id', '=', job.id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) return 'cancelling';
    return (await this.get(job.id))?.status ?? job.status;
  }

  /**
   * Running jobs whose lease ran out (their worker died): back to the queue while attempts remain,
   * else failed with a clear message. Returns the ids put back in the queue.
   */
  async reapExpiredLeases(): Promise<{ requeued: string[]; failed: string[] }> {
    const now = iso(Date.now());
    const stale = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('status', '=', 'running')
      .where('lease_expires_at', '<', now)
      .execute();
    const requeued: string[] = [];
    const failed: string[] = [];
    for (const job of stale) {
      if (job.attempts >= this.policy.maxAttempts) {
        if (await this.failExhausted(job)) failed.push(job.id);
        continue;
      }
      const res = await this.db
        .updateTable('jobs')
        .set({
          status: 'queued',
          worker_id: null,
          lease_expires_at: null,
          message: 'Re-queued: its worker stopped responding',
        })
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('attempts', '=', job.attempts)
        .where('lease_expires_at', '<', now)
        .executeTakeFirst();
      this.statusCache.invalidate(job.id);
      if (Number(res.numUpdatedRows) === 1) {
        await this.closeRun(this.db, job, { outcome: 'superseded', finished_at: now });
        requeued.push(job.id);
      }
    }
    return { requeued, failed };
  }

  /**
   * Embedded queue start-up: every job left running belonged to this process, which is gone. Each is
   * re-queued (its attempt counts) or, with no attempts left, failed.
   */
  async recoverInterrupted(): Promise<{ requeued: number; failed: number }> {
    await this.db
      .updateTable('jobs')
      .set({ lease_expires_at: iso(0) })
      .where('status', '=', 'running')
      .execute();
    const { requeued, failed } = await this.reapExpiredLeases();
    return { requeued: requeued.length, failed: failed.length };
  }

  private async failExhausted(job: JobRow): Promise<boolean> {
    const now = Date.now();
    const message = `The job was interrupted ${job.attempts} times (its worker or the server stopped) and was not retried again. Nothing was charged; please submit it again.`;
    const res = await this.db
      .updateTable('jobs')
      .set({
        status: 'failed',
        message,
        error_code: 'worker_lost',
        error_message: message,
        finished_at: iso(now),
        lease_expires_at: null,
        cost_tokens: 0,
        cost_hours: 0,
        expires_at: iso(now + this.policy.retentionHours * 3600_000),
      })
      .where('id', '=', job.id)
      .where('status', 'in', ACTIVE)
      .where('attempts', '=', job.attempts)
      .executeTakeFirst();
    this.statusCache.invalidate(job.id);
    return Number(res.numUpdatedRows) === 1;
  }

  /** Closes the open run record of the job's current attempt. */
  private async closeRun(
    trx: Kysely<Database>,
    job: Pick<JobRow, 'id' | 'attempts'>,
    values: { outcome: JobRunsTable['outcome']; finished_at: string; seconds?: number },
  ): Promise<void> {
    await trx
      .updateTable('job_runs')
      .set(values)
      .where('job_id', '=', job.id)
      .where('attempt', '=', job.attempts)
      .where('outcome', 'is', null)
      .execute();
  }

  async countByStatus(status: JobStatus): Promise<number> {
    const row = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', status)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async countByQueue(): Promise<Record<string, { queued: number; running: number }>> {
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => ['queue', 'status', eb.fn.countAll<number>().as('n')])
      .where('status', 'in', ACTIVE)
      .groupBy(['queue', 'status'])
      .execute();
    const out: Record<string, { queued: number; running: number }> = {};
    for (const r of rows) {
      const entry = out[r.queue] ?? { queued: 0, running: 0 };
      out[r.queue] = entry;
      if (r.status === 'queued') entry.queued = Number(r.n);
      else entry.running = Number(r.n);
    }
    return out;
  }

  /** A user's analysis jobs that are queued or running, and the estimate they hold against the balance. */
  async activeAnalysisOf(userId: string): Promise<{ count: number; estimateSeconds: number }> {
    const row = await this.db
      .selectFrom('jobs')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.coalesce(eb.fn.sum<number>('estimate_seconds'), eb.lit(0)).as('est'),
      ])
      .where('owner_user_id', '=', userId)
      .where('kind', '=', 'analysis')
      .where('status', 'in', ACTIVE)
      .executeTakeFirst();
    return { count: Number(row?.n ?? 0), estimateSeconds: Number(row?.est ?? 0) };
  }

  /** Queued jobs announced before `before` (ms): the BullMQ reaper re-announces them (a no-op if Redis has them). */
  async queuedOlderThan(before: number, limit = 200): Promise<JobRow[]> {
    return this.db
      .selectFrom('jobs')
      .selectAll()
      .where('status', '=', 'queued')
      .where('queued_at', '<', iso(before))
      .orderBy('queued_at')
      .limit(limit)
      .execute();
  }

  async listForUser(userId: string, limit: number): Promise<JobRow[]> {
    return this.db
      .selectFrom('jobs')
      .selectAll()
      .where('owner_user_id', '=', userId)
      .orderBy('queued_at', 'desc')
      .limit(limit)
      .execute();
  }

  async countForUser(userId: string | null): Promise<number> {
    let q = this.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n'));
    if (userId !== null) q = q.where('owner_user_id', '=', userId);
    return Number((await q.executeTakeFirst())?.n ?? 0);
  }

  async markSaved(job: JobRow): Promise<void> {
    await this.db.updateTable('jobs').set({ saved: 1 }).where('id', '=', job.id).execute();
  }

  /**
   * Finished, unsaved jobs whose files are past their retention time and still stored — except the source
   * of a queued or running job's fieldsFrom: its worker reads the source's results when it starts.
   */
  async expiredFiles(now: number, limit = 500): Promise<JobRow[]> {
    return this.db
      .selectFrom('jobs')
      .selectAll()
      .where('saved', '=', 0)
      .where('files_deleted_at', 'is', null)
      .where('expires_at', '<=', iso(now))
      .where('status', 'not in', ACTIVE)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('jobs as chained')
              .select('chained.id')
              .whereRef('chained.fields_from_job_id', '=', 'jobs.id')
              .where('chained.status', 'in', ACTIVE),
          ),
        ),
      )
      .limit(limit)
      .execute();
  }

  /** The caller's completed analysis jobs on a mesh (its hash), newest first: the sources fieldsFrom may name. */
  async completedOnMesh(owner: JobOwner, meshHash: string, limit: number): Promise<JobRow[]> {
    let q = this.db
      .selectFrom('jobs')
      .selectAll()
      .where('mesh_hash', '=', meshHash)
      .where('status', '=', 'completed')
      .where('files_deleted_at', 'is', null);
    q = owner.userId
      ? q.where('owner_user_id', '=', owner.userId)
      : q.where('owner_session_hash', '=', owner.sessionHash ?? '').where('owner_user_id', 'is', null);
    return q.orderBy('finished_at', 'desc').limit(limit).execute();
  }

  async markFilesDeleted(jobId: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ files_deleted_at: iso(Date.now()), result_location: null })
      .where('id', '=', jobId)
      .where('saved', '=', 0)
      .execute();
    this.statusCache.invalidate(jobId);
  }
}
