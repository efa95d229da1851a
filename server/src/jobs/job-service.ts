import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { JobsTable } from '../db/schema.ts';
import type { JobFiles } from './job-files.ts';
import type { JobOwner } from './job-owner.ts';

export type JobRow = JobsTable;
export type JobKind = JobsTable['kind'];

export interface NewJob {
  owner: JobOwner;
  kind: JobKind;
  analysisType: string;
  queue: string;
  input: unknown;
}

/** A job that was running when its worker died is retried this many times in all, then failed. */
export const MAX_ATTEMPTS = 2;

const nowIso = () => new Date().toISOString();

/** The job table is the source of truth for every job's state; queues only carry ids. */
export class JobService {
  constructor(
    private readonly db: Db,
    readonly files: JobFiles,
  ) {}

  async create(job: NewJob): Promise<JobRow> {
    const id = randomUUID();
    const inputLocation = await this.files.writeInput(id, job.input);
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
      queued_at: nowIso(),
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
    };
    try {
      await this.db.insertInto('jobs').values(row).execute();
    } catch (err) {
      await this.files.remove(id); // no orphaned input files when the row cannot be written
      throw err;
    }
    return row;
  }

  /** The job if `owner` owns it; otherwise null, so callers answer 404 rather than 403. */
  async findOwned(id: string, owner: JobOwner): Promise<JobRow | null> {
    let q = this.db.selectFrom('jobs').selectAll().where('id', '=', id);
    q = owner.userId
      ? q.where('owner_user_id', '=', owner.userId)
      : q.where('owner_session_hash', '=', owner.sessionHash ?? '');
    return (await q.executeTakeFirst()) ?? null;
  }

  async get(id: string): Promise<JobRow | null> {
    return (await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  /** Atomically moves the oldest queued job to running for `workerId`. */
  async claimNext(workerId: string, leaseSeconds: number): Promise<JobRow | null> {
    for (let tries = 0; tries < 5; tries++) {
      const next = await this.db
        .selectFrom('jobs')
        .select(['id', 'attempts'])
        .where('status', '=', 'queued')
        .orderBy('queued_at')
        .limit(1)
        .executeTakeFirst();
      if (!next) return null;
      const t = Date.now();
      const result = await this.db
        .updateTable('jobs')
        .set({
          status: 'running',
          started_at: new Date(t).toISOString(),
          worker_id: workerId,
          attempts: next.attempts + 1,
          lease_expires_at: new Date(t + leaseSeconds * 1000).toISOString(),
          message: 'Starting',
        })
        .where('id', '=', next.id)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return this.get(next.id);
    }
    return null;
  }

  async reportProgress(
    id: string,
    percent: number,
    message: string | undefined,
    leaseSeconds: number,
  ): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        progress: percent,
        message: message ?? null,
        lease_expires_at: new Date(Date.now() + leaseSeconds * 1000).toISOString(),
      })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute();
  }

  async complete(
    id: string,
    resultLocation: string,
    computeSeconds: number,
    message?: string,
  ): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        status: 'completed',
        progress: 100,
        message: message ?? 'Completed',
        finished_at: nowIso(),
        compute_seconds: computeSeconds,
        result_location: resultLocation,
        lease_expires_at: null,
      })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute();
  }

  async fail(id: string, code: string, message: string, computeSeconds: number | null): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        status: code === 'cancelled' ? 'cancelled' : 'failed',
        message,
        error_code: code,
        error_message: message,
        finished_at: nowIso(),
        compute_seconds: computeSeconds,
        lease_expires_at: null,
      })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .execute();
  }

  /**
   * After a restart: jobs left running by this process are re-queued once more, or failed
   * with a clear message when they have used up their attempts.
   */
  async recoverInterrupted(): Promise<{ requeued: number; failed: number }> {
    const stuck = await this.db
      .selectFrom('jobs')
      .select(['id', 'attempts'])
      .where('status', '=', 'running')
      .execute();
    let requeued = 0;
    let failed = 0;
    for (const job of stuck) {
      if (job.attempts < MAX_ATTEMPTS) {
        await this.db
          .updateTable('jobs')
          .set({
            status: 'queued',
            worker_id: null,
            lease_expires_at: null,
            message: 'Re-queued after a restart',
          })
          .where('id', '=', job.id)
          .execute();
        requeued++;
      } else {
        await this.fail(
          job.id,
          'interrupted',
          `The job was interrupted ${job.attempts} times by server restarts and was stopped. Please submit it again.`,
          null,
        );
        failed++;
      }
    }
    return { requeued, failed };
  }

  async countByStatus(status: JobRow['status']): Promise<number> {
    const row = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', status)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
