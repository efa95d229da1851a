import { hostname } from 'node:os';
import { type Job, Worker } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import { BullmqQueue } from './bullmq-queue.ts';
import { QUEUE_NAMES } from './job-queue.ts';
import { type RunnerDeps, runClaimedJob } from './job-runner.ts';
import { redisOptions } from './redis-options.ts';
import type { WorkerRegistry } from './worker-registry.ts';

type QueueName = (typeof QUEUE_NAMES)[number];
const IDLE_POLL_MS = 150;
const SWEEP_MS = 10_000;

/**
 * `fieldline worker`: takes jobs from BullMQ (`priority` before `standard`) and runs up to `slots`
 * engine processes at once. BullMQ delivers at least once; the DB claim (JobService.claim) makes
 * every extra delivery harmless. The BullMQ lock and the DB lease are renewed on each heartbeat, so
 * a killed worker's job is redelivered by BullMQ's stalled check and reclaimed once its lease expires.
 */
export class BullmqWorker {
  readonly id = `worker@${hostname()}:${process.pid}`;
  private workers: Record<QueueName, Worker> | null = null;
  private readonly active = new Map<string, { shutdown: AbortController; done: Promise<void> }>();
  private stopping = false;
  private loop: Promise<void> | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private tokenSeq = 0;
  private readonly reaper: BullmqQueue;

  constructor(
    private readonly deps: RunnerDeps & {
      redisUrl: string;
      slots: number;
      registry: WorkerRegistry;
      log: FastifyBaseLogger;
    },
  ) {
    this.reaper = new BullmqQueue({ ...deps, reap: true });
  }

  /**
   * Removes the working directories of attempts that are over: a killed worker on this machine left them,
   * and its restart cannot tell at once (the job still shows `running` until its lease runs out and
   * another attempt or the reaper takes it), so this runs at start and then every SWEEP_MS. A directory
   * is kept while its job is running that very attempt (this worker, or another sharing WORK_DIR).
   */
  private async sweep(): Promise<void> {
    const removed = await this.deps.jobs.files.sweepWorkDir(async (jobId, attempt) => {
      if (this.active.has(jobId)) return true;
      const job = await this.deps.jobs.get(jobId);
      return job?.status === 'running' && job.attempts === attempt;
    });
    if (removed > 0) this.deps.log.info({ removed }, 'removed working directories of attempts that are over');
  }

  async start(): Promise<void> {
    await this.sweep();
    this.sweepTimer = setInterval(() => void this.sweep().catch(() => undefined), SWEEP_MS);
    this.sweepTimer.unref();
    const lockMs = this.deps.leaseSeconds * 1000;
    const connection = redisOptions(this.deps.redisUrl);
    const make = (name: QueueName) =>
      new Worker(name, null, {
        connection,
        autorun: false,
        lockDuration: lockMs,
        stalledInterval: Math.max(1000, lockMs / 2),
        // The DB's attempt count is authoritative; BullMQ should keep redelivering until it decides.
        maxStalledCount: 100,
      });
    this.workers = { priority: make('priority'), standard: make('standard') };
    for (const w of Object.values(this.workers)) {
      w.on('error', (err) => this.deps.log.error({ err }, 'worker redis error'));
      await w.startStalledCheckTimer();
    }
    await this.reaper.start();
    await this.deps.registry.register(this.id, 'bullmq', this.deps.slots);
    this.heartbeatTimer = setInterval(() => {
      void this.deps.registry.heartbeat(this.id, this.active.size).catch(() => undefined);
    }, 2000);
    this.heartbeatTimer.unref();
    this.deps.log.info({ worker: this.id, slots: this.deps.slots, queues: QUEUE_NAMES }, 'worker started');
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      if (this.active.size >= this.deps.slots) {
        await Promise.race([...[...this.active.values()].map((a) => a.done), sleep(1000)]);
        continue;
      }
      const next = await this.fetchNext().catch((err) => {
        this.deps.log.error({ err }, 'could not fetch a job');
        return null;
      });
      if (!next) {
        await sleep(IDLE_POLL_MS);
        continue;
      }
      this.handle(next.job, next.token);
    }
  }

  /** The next job, draining `priority` before `standard`. */
  private async fetchNext(): Promise<{ job: Job; token: string } | null> {
    if (!this.workers) return null;
    for (const name of QUEUE_NAMES) {
      const token = `${this.id}:${++this.tokenSeq}`;
      const job = (await this.workers[name].getNextJob(token, { block: false })) as Job | undefined;
      if (job) return { job, token };
    }
    return null;
  }

  private handle(bullJob: Job, token: string): void {
    const jobId = String((bullJob.data as { jobId?: string }).jobId ?? bullJob.id);
    const shutdown = new AbortController();
    const done = this.process(jobId, bullJob, token, shutdown.signal)
      .catch((err) => this.deps.log.error({ err, jobId }, 'job handling error'))
      .finally(() => this.active.delete(jobId));
    this.active.set(jobId, { shutdown, done });
  }

  private async process(jobId: string, bullJob: Job, token: string, shutdown: AbortSignal): Promise<void> {
    const lockMs = this.deps.leaseSeconds * 1000;
    const claim = await this.deps.jobs.claim(jobId, this.id, this.deps.leaseSeconds);
    if (!claim.claimed) {
      if (claim.reason === 'held') {
        // Another worker still holds a live lease: look again when it would have expired.
        await bullJob.moveToDelayed((claim.retryAt ?? Date.now()) + 500, token);
      } else {
        this.deps.log.info(
          { jobId, reason: claim.reason },
          'duplicate or stale delivery acknowledged without running',
        );
        await bullJob.moveToCompleted(`skipped: ${claim.reason}`, token, false);
      }
      return;
    }
    const end = await runClaimedJob(claim.job, this.id, this.deps, {
      shutdown,
      onHeartbeat: async () => {
        await bullJob.extendLock(token, lockMs);
      },
    });
    try {
      if (end === 'requeued') await bullJob.moveToDelayed(Date.now(), token);
      else await bullJob.moveToCompleted(end, token, false);
    } catch (err) {
      // Redis lost the entry (a restart without persistence) or another worker took it over: the outcome
      // is already in the database, which is the source of truth; the reaper re-announces queued jobs.
      this.deps.log.info({ jobId, err: (err as Error).message }, 'BullMQ entry no longer held; outcome kept');
    }
  }

  /** Stops taking jobs; running ones get `graceMs` to finish, then go back to the queue for another worker. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    await this.loop;
    const all = Promise.all([...this.active.values()].map((a) => a.done));
    const timedOut = await Promise.race([all.then(() => false), sleep(graceMs).then(() => true)]);
    if (timedOut) {
      for (const a of this.active.values()) a.shutdown.abort();
      await all;
    }
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.reaper.stop();
    if (this.workers) await Promise.all(Object.values(this.workers).map((w) => w.close(true)));
    await this.deps.registry.unregister(this.id).catch(() => undefined);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());
