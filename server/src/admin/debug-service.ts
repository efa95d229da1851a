import type { JobDetail } from '@aws-sdk/client-batch';
import { sql } from 'kysely';
import { PlanCatalog } from '../billing/plan-catalog.ts';
import type { UserPlans } from '../billing/user-plans.ts';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/database.ts';
import { AwsBatchQueue } from '../jobs/aws-batch-queue.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { JobRow, JobService } from '../jobs/job-service.ts';
import type { BlobStore } from '../storage/blob-store.ts';

/** Who is asking: debug output is scoped to the caller unless they are an administrator. */
export interface Caller {
  userId: string;
  isAdmin: boolean;
}

/** ECS-style task (spec 000 §3 Recent task) describing one of our jobs. */
export interface RecentTask {
  taskArn: string;
  taskDefinitionArn: string;
  lastStatus: string;
  desiredStatus: string;
  createdAt: string;
  startedAt: string | null;
  stoppedAt: string | null;
  stoppedReason: string | null;
  cpu: string;
  memory: string;
  /** The API token that submitted the job (issue 38); null when a browser session did. */
  submittedWithToken?: string | null;
}

const TASK_DEFINITION_VERSION = 1;
const LAST_STATUS: Record<JobRow['status'], string> = {
  queued: 'PENDING',
  running: 'RUNNING',
  completed: 'STOPPED',
  failed: 'STOPPED',
  cancelled: 'STOPPED',
};

const BATCH_LAST_STATUS: Record<string, string> = {
  SUBMITTED: 'PROVISIONING',
  PENDING: 'PENDING',
  RUNNABLE: 'PENDING',
  STARTING: 'ACTIVATING',
  RUNNING: 'RUNNING',
  SUCCEEDED: 'STOPPED',
  FAILED: 'STOPPED',
};

/** What the debug panel reads: jobs and their runs, the queue, the caller's plan, where files are stored. */
export interface DebugServiceDeps {
  db: Db;
  jobs: JobService;
  queue: JobQueue;
  userPlans: Pick<UserPlans, 'planOf'>;
  /** The job files' blob store: its backend and location are shown (the location to administrators). */
  storage: Pick<BlobStore, 'backend' | 'location'>;
  /** JOB_MEMORY_LIMIT_MB (a task's memory) and the AWS Batch job definition. */
  config: Pick<AppConfig, 'jobMemoryLimitMb' | 'batch'>;
}

/** The dashboard debug panel's calls (spec 000 §7 /api/admin/*), answered from our own compute backend. */
export class DebugService {
  constructor(private readonly deps: DebugServiceDeps) {}

  private region(): string {
    const { backend, location } = this.deps.queue;
    return backend === 'bullmq' || backend === 'aws-batch' ? location : 'local';
  }

  private batch(): AwsBatchQueue | null {
    return this.deps.queue instanceof AwsBatchQueue ? this.deps.queue : null;
  }

  /** A Batch job in the spec's task shape; jobId is ours. */
  batchTask(d: JobDetail, jobId: string): RecentTask & { jobId: string; batchStatus: string } {
    const status = d.status ?? 'SUBMITTED';
    const resources = Object.fromEntries(
      (d.container?.resourceRequirements ?? []).map((r) => [r.type ?? '', r.value ?? '']),
    );
    const vcpus = resources.VCPU ?? (d.container?.vcpus ? String(d.container.vcpus) : '1');
    return {
      taskArn: d.jobArn ?? d.jobId ?? '',
      taskDefinitionArn: d.jobDefinition ?? '',
      lastStatus: BATCH_LAST_STATUS[status] ?? status,
      desiredStatus: status === 'SUCCEEDED' || status === 'FAILED' ? 'STOPPED' : 'RUNNING',
      createdAt: new Date(d.createdAt ?? 0).toISOString(),
      startedAt: d.startedAt ? new Date(d.startedAt).toISOString() : null,
      stoppedAt: d.stoppedAt ? new Date(d.stoppedAt).toISOString() : null,
      stoppedReason: d.statusReason ?? null,
      cpu: String(Math.round(Number(vcpus) * 1024)),
      memory: resources.MEMORY ?? String(d.container?.memory ?? this.deps.config.jobMemoryLimitMb),
      jobId,
      batchStatus: status,
    };
  }

  taskArn(jobId: string): string {
    return `arn:fieldline:compute:${this.region().replace(/[^A-Za-z0-9.-]+/g, '-')}:task/${jobId}`;
  }

  toTask(job: JobRow): RecentTask {
    const family = `fieldline-${job.kind}-${job.analysis_type}`;
    return {
      taskArn: this.taskArn(job.id),
      taskDefinitionArn: `arn:fieldline:compute:${this.region().replace(/[^A-Za-z0-9.-]+/g, '-')}:task-definition/${family}:${TASK_DEFINITION_VERSION}`,
      lastStatus: LAST_STATUS[job.status],
      desiredStatus: job.status === 'queued' || job.status === 'running' ? 'RUNNING' : 'STOPPED',
      createdAt: job.queued_at,
      startedAt: job.started_at,
      stoppedAt: job.finished_at,
      stoppedReason: job.status === 'completed' ? 'Essential container in task exited' : job.error_message,
      cpu: '1024',
      memory: String(this.deps.config.jobMemoryLimitMb),
      submittedWithToken: job.api_token_name,
    };
  }

  async allData(caller: Caller) {
    let tableExists = true;
    try {
      await sql`select 1 from jobs where 1 = 0`.execute(this.deps.db);
    } catch {
      tableExists = false;
    }
    const own = tableExists ? await this.deps.jobs.countForUser(caller.userId) : 0;
    const all = tableExists && caller.isAdmin ? await this.deps.jobs.countForUser(null) : own;
    return {
      success: true,
      table_exists: tableExists,
      table_name: 'jobs',
      user_logs_count: own,
      all_logs_count: all,
      scope: caller.isAdmin ? 'all users' : 'your jobs only',
    };
  }

  async awsConnection(caller: Caller) {
    const batch = this.batch();
    if (batch) return this.batchConnection(caller, batch);
    const { plan } = await this.deps.userPlans.planOf(caller.userId);
    const stats = await this.deps.queue.stats();
    const storage = this.deps.storage;
    return {
      success: true,
      backend: stats.backend,
      aws_region: this.region(),
      queue_name: PlanCatalog.queueFor(plan),
      job_queues: stats.queues.map((q) => ({
        jobQueueName: q.name,
        state: 'ENABLED',
        status: stats.workers > 0 ? 'VALID' : 'NO_WORKERS',
        depth: q.queued,
        running: q.running,
        workers: stats.workers,
      })),
      workers: stats.workers,
      slots: stats.slots,
      storage: caller.isAdmin
        ? { backend: storage.backend, location: storage.location }
        : { backend: storage.backend },
    };
  }

  /** COMPUTE_BACKEND=aws-batch: the account's job queues from DescribeJobQueues. */
  private async batchConnection(caller: Caller, batch: AwsBatchQueue) {
    const { plan } = await this.deps.userPlans.planOf(caller.userId);
    const [queues, stats] = await Promise.all([batch.describeQueues(), batch.stats()]);
    const storage = this.deps.storage;
    return {
      success: true,
      backend: stats.backend,
      aws_region: batch.location,
      queue_name: batch.batchQueueFor(PlanCatalog.queueFor(plan)),
      job_definition: this.deps.config.batch.jobDefinition,
      job_queues: queues.map((q) => ({
        jobQueueName: q.jobQueueName,
        jobQueueArn: q.jobQueueArn,
        state: q.state,
        status: q.status,
        priority: q.priority,
      })),
      workers: stats.workers,
      queued: stats.queued,
      running: stats.running,
      storage: caller.isAdmin
        ? { backend: storage.backend, location: storage.location }
        : { backend: storage.backend },
    };
  }

  async recentTasks(caller: Caller, limit = 20) {
    const batch = this.batch();
    if (batch) return { success: true, tasks: await this.recentBatchTasks(caller, batch, limit) };
    const jobs = await this.deps.jobs.listForUser(caller.userId, limit);
    return { success: true, tasks: jobs.map((j) => this.toTask(j)) };
  }

  /** The Batch jobs of the caller's recent jobs (every user's for admins), newest first, from DescribeJobs. */
  private async recentBatchTasks(caller: Caller, batch: AwsBatchQueue, limit: number) {
    let q = this.deps.db
      .selectFrom('batch_submissions')
      .innerJoin('jobs', 'jobs.id', 'batch_submissions.job_id')
      .select(['batch_submissions.batch_job_id', 'batch_submissions.job_id'])
      .orderBy('batch_submissions.submitted_at', 'desc')
      .limit(limit);
    if (!caller.isAdmin) q = q.where('jobs.owner_user_id', '=', caller.userId);
    const rows = await q.execute();
    const details = new Map((await batch.describe(rows.map((r) => r.batch_job_id))).map((d) => [d.jobId, d]));
    return rows.flatMap((r) => {
      const d = details.get(r.batch_job_id);
      return d ? [this.batchTask(d, r.job_id)] : [];
    });
  }

  /** One job by ARN or id; someone else's job (unless admin) is indistinguishable from a missing one. */
  async testTask(caller: Caller, arnOrId: string) {
    let id = arnOrId.trim().split('/').pop() ?? '';
    const batch = this.batch();
    if (batch) {
      // A Batch job ARN or id names one submission of one of our jobs.
      const sub = await this.deps.db
        .selectFrom('batch_submissions')
        .select('job_id')
        .where('batch_job_id', '=', id)
        .executeTakeFirst();
      if (sub) id = sub.job_id;
    }
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const job = caller.isAdmin
      ? await this.deps.jobs.get(id)
      : await this.deps.jobs.findOwned(id, { userId: caller.userId, sessionHash: null });
    if (!job) return null;
    const runs = await this.deps.db
      .selectFrom('job_runs')
      .select(['attempt', 'worker_id', 'started_at', 'finished_at', 'outcome', 'seconds'])
      .where('job_id', '=', job.id)
      .orderBy('attempt')
      .execute();
    return {
      success: true,
      task: {
        ...this.toTask(job),
        jobId: job.id,
        status: job.status,
        progress: job.progress,
        message: job.message,
        queue: job.queue,
        attempts: job.attempts,
        workerId: job.worker_id,
        leaseExpiresAt: job.lease_expires_at,
        computeSeconds: job.compute_seconds,
        costTokens: job.cost_tokens,
        costHours: job.cost_hours,
        backendState: await this.deps.queue.backendState(job.id),
        runs,
        ...(batch ? { batch: await this.batchDetails(batch, job.id) } : {}),
      },
    };
  }

  private async batchDetails(batch: AwsBatchQueue, jobId: string) {
    const subs = await batch.submissionsOf(jobId);
    const details = new Map((await batch.describe(subs.map((s) => s.batch_job_id))).map((d) => [d.jobId, d]));
    return subs.map((s) => {
      const d = details.get(s.batch_job_id);
      return d
        ? { ...this.batchTask(d, jobId), jobQueue: s.job_queue }
        : { taskArn: s.job_arn, batchStatus: s.batch_status, jobQueue: s.job_queue, jobId };
    });
  }
}
