import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { EngineLocation } from '../engine/engine-runner.ts';
import { type ExecutorLimits, executeJob, LEASE_SECONDS } from './job-executor.ts';
import type { JobQueue, QueueStats } from './job-queue.ts';
import type { JobService } from './job-service.ts';

/**
 * The default queue: an in-process scheduler with a fixed number of slots, one engine subprocess
 * per running job. Queued jobs live in the DB, so a restart loses nothing.
 */
export class EmbeddedQueue implements JobQueue {
  private readonly running = new Map<string, AbortController>();
  private readonly finished = new Set<Promise<void>>();
  private stopping = false;
  private pumping = false;
  private pumpAgain = false;
  private readonly workerId = `embedded@${hostname()}:${process.pid}`;

  constructor(
    private readonly deps: {
      jobs: JobService;
      engine: EngineLocation;
      limits: ExecutorLimits;
      slots: number;
      log: FastifyBaseLogger;
    },
  ) {}

  async start(): Promise<void> {
    const recovered = await this.deps.jobs.recoverInterrupted();
    if (recovered.requeued + recovered.failed > 0)
      this.deps.log.info(recovered, 'recovered interrupted jobs');
    void this.pump();
  }

  async enqueue(): Promise<void> {
    void this.pump();
  }

  async cancel(jobId: string): Promise<boolean> {
    const controller = this.running.get(jobId);
    if (!controller) return false;
    controller.abort();
    return true;
  }

  async stats(): Promise<QueueStats> {
    return {
      backend: 'embedded',
      slots: this.deps.slots,
      running: this.running.size,
      queued: await this.deps.jobs.countByStatus('queued'),
      workers: 1,
    };
  }

  async stop(graceMs = 30_000): Promise<void> {
    this.stopping = true;
    const all = Promise.all([...this.finished]);
    const timedOut = await Promise.race([all.then(() => false), sleep(graceMs).then(() => true)]);
    if (timedOut) {
      // Kill what is left; recoverInterrupted() re-queues those jobs at the next start.
      for (const c of this.running.values()) c.abort();
    }
  }

  private async pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        await this.fillSlots();
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
  }

  private async fillSlots(): Promise<void> {
    while (!this.stopping && this.running.size < this.deps.slots) {
      const job = await this.deps.jobs.claimNext(this.workerId, LEASE_SECONDS);
      if (!job) break;
      const controller = new AbortController();
      this.running.set(job.id, controller);
      const done = executeJob(job, this.deps, controller.signal)
        .catch((err) => this.deps.log.error({ err, jobId: job.id }, 'job execution error'))
        .finally(() => {
          this.running.delete(job.id);
          this.finished.delete(done);
          void this.pump();
        });
      this.finished.add(done);
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());
