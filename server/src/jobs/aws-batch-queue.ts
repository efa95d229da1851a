import {
  BatchClient,
  DescribeJobQueuesCommand,
  DescribeJobsCommand,
  type JobDetail,
  SubmitJobCommand,
  TerminateJobCommand,
} from '@aws-sdk/client-batch';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { BatchConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { JobQueue, QueueStats } from './job-queue.ts';
import type { JobService } from './job-service.ts';
import { statsFromJobsTable } from './queue-stats.ts';
import type { WorkerRegistry } from './worker-registry.ts';

/** Batch states after which the container is gone. */
export const BATCH_TERMINAL = ['SUCCEEDED', 'FAILED'];
/** A queued job is submitted again only when it has waited this long with no live Batch job. */
const RESUBMIT_AFTER_MS = 5000;
/** Batch's own timeout is a backstop above the engine's (JOB_TIMEOUT_SECONDS, enforced by the worker). */
const BATCH_TIMEOUT_MARGIN_SECONDS = 300;

export interface BatchQueueDeps {
  config: BatchConfig;
  db: Kysely<Database>;
  jobs: JobService;
  registry: WorkerRegistry;
  jobTimeoutSeconds: number;
  log: FastifyBaseLogger;
  /** Tests pass a client with their own endpoint/credentials; otherwise built from `config`. */
  client?: BatchClient;
}

export function batchClient(config: BatchConfig): BatchClient {
  return new BatchClient({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
  });
}

const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : null);

/**
 * COMPUTE_BACKEND=aws-batch: every job becomes one AWS Batch job (SubmitJob with the job id; the
 * container runs `fieldline batch-run <jobId>`, which claims the job in the DB, runs the engine on the
 * inputs in S3 and writes the results back). The DB stays the source of truth; the server polls
 * DescribeJobs for Batch's view (state and measured times), reaps expired leases (a killed container's
 * job goes back to `queued` while JOB_MAX_ATTEMPTS allow) and submits queued jobs that no live Batch
 * job will pick up. Cancelling a queued job terminates its Batch job; a running one stops cooperatively
 * through the lease like in the other backends.
 */
export class AwsBatchQueue implements JobQueue {
  readonly backend = 'aws-batch' as const;
  readonly location: string;
  readonly client: BatchClient;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;

  constructor(private readonly deps: BatchQueueDeps) {
    const { config } = deps;
    if (!config.jobQueue || !config.jobDefinition)
      throw new Error('COMPUTE_BACKEND=aws-batch needs BATCH_JOB_QUEUE and BATCH_JOB_DEFINITION');
    this.location = config.region;
    this.client = deps.client ?? batchClient(config);
  }

  /** The Batch job queue a Fieldline queue name maps to. */
  batchQueueFor(queueName: string): string {
    const { jobQueue, priorityJobQueue } = this.deps.config;
    return queueName === 'priority' && priorityJobQueue ? priorityJobQueue : (jobQueue as string);
  }

  async start(): Promise<void> {
    const seconds = this.deps.config.pollSeconds;
    if (seconds > 0) {
      this.timer = setInterval(() => void this.poll(), seconds * 1000);
      this.timer.unref();
    }
  }

  async enqueue(jobId: string, queueName: string): Promise<void> {
    const jobQueue = this.batchQueueFor(queueName);
    const out = await this.client.send(
      new SubmitJobCommand({
        jobName: `fieldline-${jobId}`,
        jobQueue,
        jobDefinition: this.deps.config.jobDefinition as string,
        parameters: { jobId },
        containerOverrides: { command: ['batch-run', jobId] },
        // Retries are ours (JOB_MAX_ATTEMPTS, counted in the DB), not Batch's.
        retryStrategy: { attempts: 1 },
        timeout: { attemptDurationSeconds: this.deps.jobTimeoutSeconds + BATCH_TIMEOUT_MARGIN_SECONDS },
        tags: { 'fieldline:job': jobId },
      }),
    );
    if (!out.jobId || !out.jobArn) throw new Error('SubmitJob returned no job id');
    await this.deps.db
      .insertInto('batch_submissions')
      .values({
        batch_job_id: out.jobId,
        job_id: jobId,
        job_arn: out.jobArn,
        job_queue: jobQueue,
        submitted_at: new Date().toISOString(),
        batch_status: 'SUBMITTED',
        status_reason: null,
        started_at: null,
        stopped_at: null,
      })
      .execute();
    this.deps.log.info({ jobId, batchJobId: out.jobId, jobQueue }, 'submitted to AWS Batch');
  }

  /** Terminates the job's live Batch jobs (called once the DB says cancelled; running jobs stop through the lease first). */
  async cancel(jobId: string): Promise<void> {
    for (const s of await this.submissionsOf(jobId)) {
      if (BATCH_TERMINAL.includes(s.batch_status)) continue;
      await this.client
        .send(new TerminateJobCommand({ jobId: s.batch_job_id, reason: 'Cancelled in Fieldline' }))
        .catch((err) => this.deps.log.warn({ err, jobId }, 'TerminateJob failed'));
    }
  }

  async submissionsOf(jobId: string) {
    return this.deps.db
      .selectFrom('batch_submissions')
      .selectAll()
      .where('job_id', '=', jobId)
      .orderBy('submitted_at')
      .execute();
  }

  async backendState(jobId: string): Promise<string | null> {
    const subs = await this.submissionsOf(jobId);
    const last = subs.at(-1);
    if (!last) return null;
    const [detail] = await this.describe([last.batch_job_id]);
    return `batch:${detail?.status ?? last.batch_status} ${last.batch_job_id} (${subs.length} submission${subs.length === 1 ? '' : 's'})`;
  }

  /** DescribeJobs in chunks of 100 (the API's limit); unknown ids are simply absent. */
  async describe(batchJobIds: string[]): Promise<JobDetail[]> {
    const out: JobDetail[] = [];
    for (let i = 0; i < batchJobIds.length; i += 100) {
      const res = await this.client.send(new DescribeJobsCommand({ jobs: batchJobIds.slice(i, i + 100) }));
      out.push(...(res.jobs ?? []));
    }
    return out;
  }

  async describeQueues() {
    const res = await this.client.send(new DescribeJobQueuesCommand({}));
    return res.jobQueues ?? [];
  }

  stats(): Promise<QueueStats> {
    return statsFromJobsTable(this.backend, this.deps.jobs, this.deps.registry);
  }

  /** One reconciliation pass; never runs twice at once. */
  poll(): Promise<void> {
    if (!this.polling)
      this.polling = this.pollOnce()
        .catch((err) => this.deps.log.warn({ err }, 'AWS Batch poll failed'))
        .finally(() => {
          this.polling = null;
        });
    return this.polling;
  }

  private async pollOnce(): Promise<void> {
    const { db, jobs, log } = this.deps;
    // 1. Batch's view of every submission not known to be over.
    const open = await db
      .selectFrom('batch_submissions')
      .select('batch_job_id')
      .where('batch_status', 'not in', BATCH_TERMINAL)
      .execute();
    for (const d of await this.describe(open.map((r) => r.batch_job_id))) await this.record(d);

    // 2. Killed containers: their leases ran out; back to queued while attempts remain.
    const { requeued, failed } = await jobs.reapExpiredLeases();
    if (requeued.length + failed.length > 0)
      log.info({ requeued, failed }, 'reaped jobs of lost Batch workers');

    // 3. Queued jobs that no live Batch job will pick up (never submitted, or their container ended
    //    without claiming them): submit again.
    for (const job of await jobs.queuedOlderThan(Date.now() - RESUBMIT_AFTER_MS)) {
      const subs = await this.submissionsOf(job.id);
      if (subs.some((s) => !BATCH_TERMINAL.includes(s.batch_status))) continue;
      await this.enqueue(job.id, job.queue).catch((err) =>
        log.warn({ err, jobId: job.id }, 'could not submit to AWS Batch'),
      );
    }
  }

  private async record(d: JobDetail): Promise<void> {
    if (!d.jobId || !d.status) return;
    await this.deps.db
      .updateTable('batch_submissions')
      .set({
        batch_status: d.status,
        status_reason: d.statusReason ?? null,
        started_at: iso(d.startedAt),
        stopped_at: iso(d.stoppedAt),
      })
      .where('batch_job_id', '=', d.jobId)
      .execute();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.polling;
  }
}
