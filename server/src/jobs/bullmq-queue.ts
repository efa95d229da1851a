import { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue, QUEUE_NAMES, QueueStats } from './job-queue.ts';
import type { JobService } from './job-service.ts';
import { statsFromJobsTable } from './queue-stats.ts';
import { redisLocation, redisOptions } from './redis-options.ts';
import type { WorkerRegistry } from './worker-registry.ts';

type QueueName = (typeof QUEUE_NAMES)[number];

/** BullMQ job options: our job id is BullMQ's id, so announcing a job twice adds it once. */
export const BULL_JOB_OPTIONS = { removeOnComplete: true, removeOnFail: true } as const;

/**
 * The distributed queue on the API side: announces jobs to the BullMQ queue their plan picks
 * (`priority` or `standard`), removes cancelled ones, and reports depth. Workers (`fieldline worker`)
 * run the jobs on any number of machines. A reaper re-announces jobs whose worker died and any
 * queued job Redis lost, so the DB stays the source of truth.
 */
export class BullmqQueue implements JobQueue {
  readonly backend = 'bullmq' as const;
  readonly location: string;
  private queues: Record<QueueName, Queue> | null = null;
  private reaper: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: {
      redisUrl: string;
      jobs: JobService;
      registry: WorkerRegistry;
      leaseSeconds: number;
      log: FastifyBaseLogger;
      /** Whether this process runs the reaper (the API server does; workers run their own). */
      reap: boolean;
    },
  ) {
    this.location = redisLocation(deps.redisUrl);
  }

  private open(): Record<QueueName, Queue> {
    if (!this.queues) {
      const connection = redisOptions(this.deps.redisUrl);
      this.queues = {
        priority: new Queue('priority', { connection }),
        standard: new Queue('standard', { connection }),
      };
      for (const q of Object.values(this.queues))
        q.on('error', (err) => this.deps.log.error({ err }, 'redis error'));
    }
    return this.queues;
  }

  async start(): Promise<void> {
    this.open();
    if (this.deps.reap) {
      this.reaper = setInterval(() => void this.reap(), Math.max(1000, (this.deps.leaseSeconds * 1000) / 2));
      this.reaper.unref();
    }
  }

  async enqueue(jobId: string, queueName: string): Promise<void> {
    const queue = this.open()[asQueueName(queueName)];
    await queue.add('fea', { jobId }, { ...BULL_JOB_OPTIONS, jobId });
  }

  async cancel(jobId: string): Promise<void> {
    for (const queue of Object.values(this.open())) {
      const job = await queue.getJob(jobId);
      // An active job is locked by its worker, which stops it cooperatively; removing it would fail.
      if (job && !(await job.isActive())) await job.remove().catch(() => undefined);
    }
  }

  async backendState(jobId: string): Promise<string | null> {
    for (const [name, queue] of Object.entries(this.open())) {
      const job = await queue.getJob(jobId);
      if (job) return `${name}:${await job.getState()}`;
    }
    return null;
  }

  stats(): Promise<QueueStats> {
    return statsFromJobsTable(this.backend, this.deps.jobs, this.deps.registry);
  }

  /** Re-announces jobs whose lease expired (their worker died) and queued jobs Redis does not hold. */
  async reap(): Promise<void> {
    try {
      const { requeued, failed } = await this.deps.jobs.reapExpiredLeases();
      if (requeued.length + failed.length > 0)
        this.deps.log.info({ requeued, failed }, 'reaped jobs of lost workers');
      for (const job of await this.deps.jobs.queuedOlderThan(Date.now() - 5000)) {
        await this.enqueue(job.id, job.queue);
      }
    } catch (err) {
      this.deps.log.warn({ err }, 'reaper pass failed');
    }
  }

  async stop(): Promise<void> {
    if (this.reaper) clearInterval(this.reaper);
    if (this.queues) await Promise.all(Object.values(this.queues).map((q) => q.close()));
    this.queues = null;
  }
}

export function asQueueName(name: string): QueueName {
  return name === 'priority' ? 'priority' : 'standard';
}
