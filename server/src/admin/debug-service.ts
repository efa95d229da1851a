import { sql } from 'kysely';
import type { AppContext } from '../app-context.ts';
import { PlanCatalog } from '../billing/plan-catalog.ts';
import type { JobRow } from '../jobs/job-service.ts';

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
}

const TASK_DEFINITION_VERSION = 1;
const LAST_STATUS: Record<JobRow['status'], string> = {
  queued: 'PENDING',
  running: 'RUNNING',
  completed: 'STOPPED',
  failed: 'STOPPED',
  cancelled: 'STOPPED',
};

/** The dashboard debug panel's calls (spec 000 §7 /api/admin/*), answered from our own compute backend. */
export class DebugService {
  constructor(private readonly ctx: AppContext) {}

  private region(): string {
    return this.ctx.queue.backend === 'bullmq' ? this.ctx.queue.location : 'local';
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
      memory: String(this.ctx.config.jobMemoryLimitMb),
    };
  }

  async allData(caller: Caller) {
    let tableExists = true;
    try {
      await sql`select 1 from jobs where 1 = 0`.execute(this.ctx.db);
    } catch {
      tableExists = false;
    }
    const own = tableExists ? await this.ctx.jobs.countForUser(caller.userId) : 0;
    const all = tableExists && caller.isAdmin ? await this.ctx.jobs.countForUser(null) : own;
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
    const { plan } = await this.ctx.compute.userPlans.planOf(caller.userId);
    const stats = await this.ctx.queue.stats();
    const storage = this.ctx.compute.storage.blobs;
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

  async recentTasks(caller: Caller, limit = 20) {
    const jobs = await this.ctx.jobs.listForUser(caller.userId, limit);
    return { success: true, tasks: jobs.map((j) => this.toTask(j)) };
  }

  /** One job by ARN or id; someone else's job (unless admin) is indistinguishable from a missing one. */
  async testTask(caller: Caller, arnOrId: string) {
    const id = arnOrId.trim().split('/').pop() ?? '';
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const job = caller.isAdmin
      ? await this.ctx.jobs.get(id)
      : await this.ctx.jobs.findOwned(id, { userId: caller.userId, sessionHash: null });
    if (!job) return null;
    const runs = await this.ctx.db
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
        backendState: await this.ctx.queue.backendState(job.id),
        runs,
      },
    };
  }
}
