import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue, QueueStats } from './job-queue.ts';
import { QUEUE_NAMES } from './job-queue.ts';
import { type RunnerDeps, runClaimedJob } from './job-runner.ts';
import type { JobService } from './job-service.ts';
import type { WorkerRegistry } from './worker-registry.ts';

const TICK_MS = 1000;

/**
 * The default queue: an in-process scheduler with a fixed number of slots, one engine subprocess
 * per running job. Queued jobs live in the DB, so a restart loses nothing; jobs still running at
 * shutdown are re-queued after the grace period, and a crash is recovered at the next start.
 */
export class EmbeddedQueue implements JobQueue {
  readonly backend = 'embedded' as const;
  readonly location = `in-process on ${hostname()}`;
  private readonly running = new Map<string, AbortController>();
  /**
   * Running jobs whose engine has not ended yet: what the slots bound. A job whose engine has ended still
   * stores its results and records its outcome (a few ms of the server's own work) while the slot's next
   * job stages in and starts its engine — a study's points follow each other without that gap.
   */
  private readonly engines = new Set<string>();
  private readonly finished = new Set<Promise<void>>();
  private stopping = false;
  private pumping = false;
  private pumpAgain = false;
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private readonly workerId = `embedded@${hostname()}:${process.pid}`;

  constructor(
    private readonly deps: RunnerDeps & {
      jobs: JobService;
      slots: number;
      registry: WorkerRegistry;
      log: FastifyBaseLogger;
    },
  ) {}

  async start(): Promise<void> {
    this.started = true;
    // Every job here ran in this process, which is starting: what a crash left in WORK_DIR is stale.
    const swept = await this.deps.jobs.files.sweepWorkDir(async () => false);
    if (swept > 0) this.deps.log.info({ swept }, 'removed working directories of interrupted jobs');
    const recovered = await this.deps.jobs.recoverInterrupted();
    if (recovered.requeued + recovered.failed > 0)
      this.deps.log.info(recovered, 'recovered interrupted jobs');
    await this.deps.registry.register(this.workerId, this.backend, this.deps.slots);
    // The tick renews the worker heartbeat and picks up jobs another process queued in the DB.
    this.timer = setInterval(() => {
      void this.deps.registry.heartbeat(this.workerId, this.running.size).catch(() => undefined);
      void this.pump();
    }, TICK_MS);
    this.timer.unref();
    void this.pump();
  }

  async enqueue(): Promise<void> {
    void this.pump();
  }

  async cancel(): Promise<void> {
    // Queued jobs are cancelled in the DB; running ones see the flag at their next heartbeat.
  }

  async backendState(jobId: string): Promise<string | null> {
    return this.running.has(jobId) ? `running in slot on ${this.workerId}` : null;
  }

  async stats(): Promise<QueueStats> {
    const depth = await this.deps.jobs.countByQueue();
    const queues = QUEUE_NAMES.map((name) => ({
      name,
      queued: depth[name]?.queued ?? 0,
      running: depth[name]?.running ?? 0,
    }));
    return {
      backend: this.backend,
      slots: this.deps.slots,
      running: this.running.size,
      queued: queues.reduce((n, q) => n + q.queued, 0),
      workers: this.stopping ? 0 : 1,
      queues,
    };
  }

  async stop(graceMs = 30_000): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    // A claim already in flight lands in `running` after the fact: wait for it, so that job is re-queued
    // (or awaited) with the others instead of being left `running` after the stop.
    while (this.pumping) await sleep(5);
    const all = Promise.all([...this.finished]);
    const timedOut = await Promise.race([all.then(() => false), sleep(graceMs).then(() => true)]);
    if (timedOut) {
      this.deps.log.info({ jobs: [...this.running.keys()] }, 're-queueing running jobs for shutdown');
      for (const c of this.running.values()) c.abort();
      await Promise.all([...this.finished]);
    }
    await this.deps.registry.unregister(this.workerId).catch(() => undefined);
  }

  private async pump(): Promise<void> {
    if (!this.started) return; // jobs announced before start() are picked up by start()
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
    } catch (err) {
      this.deps.log.error({ err }, 'embedded queue could not claim a job');
    } finally {
      this.pumping = false;
    }
  }

  private async fillSlots(): Promise<void> {
    while (!this.stopping && this.engines.size < this.deps.slots) {
      const job = await this.deps.jobs.claimNext(this.workerId, this.deps.leaseSeconds);
      if (!job) break;
      const shutdown = new AbortController();
      this.running.set(job.id, shutdown);
      this.engines.add(job.id);
      const engineDone = () => {
        if (this.engines.delete(job.id) && !this.stopping) void this.pump();
      };
      const done = runClaimedJob(job, this.workerId, this.deps, {
        shutdown: shutdown.signal,
        onEngineDone: engineDone,
      })
        .then(() => undefined)
        .catch((err) => this.deps.log.error({ err, jobId: job.id }, 'job execution error'))
        .finally(() => {
          this.engines.delete(job.id);
          this.running.delete(job.id);
          this.finished.delete(done);
          if (!this.stopping) void this.pump();
        });
      this.finished.add(done);
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());
