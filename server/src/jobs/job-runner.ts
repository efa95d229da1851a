import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import {
  type EngineLocation,
  type EngineOutcome,
  type EngineStart,
  runEngine,
} from '../engine/engine-runner.ts';
import { stageFieldsFrom, unstageFieldsFrom } from './fields-from.ts';
import type { JobRow, JobService, RunOutcome } from './job-service.ts';
import {
  chooseRanks,
  coresCharged,
  parseRankRequest,
  RANKS_FILE,
  type RankRequest,
  threadsPerRank,
} from './mpi-ranks.ts';

export interface RunnerLimits {
  timeoutSeconds: number;
  /** One job's memory: shared by its MPI ranks (each gets an equal part). */
  memoryLimitMb: number;
}

export interface RunnerDeps {
  jobs: JobService;
  engine: EngineLocation;
  limits: RunnerLimits;
  /** MPI_SLOTS and MPI_HOSTFILE (docs/distributed.md); absent: one engine process per job. */
  mpi?: { slots: number; hostfile: string | null };
  leaseSeconds: number;
  /** How often a running job renews its lease and looks for a cancel request. */
  heartbeatMs: number;
  log: FastifyBaseLogger;
  /** Test-only: lets the engine honour `test_hooks` in the job input. */
  engineTestHooks: boolean;
}

export type RunEnd = 'finished' | 'requeued' | 'lost';

type StopReason = 'cancel' | 'shutdown' | 'lease_lost' | 'unavailable_source';

const PROGRESS_MIN_INTERVAL_MS = 500;

/**
 * Runs one claimed attempt: stages the input from storage into a local directory, runs the engine
 * with its limits while renewing the lease, stages the results out, and records the outcome (and
 * the charge) through JobService.finish. `shutdown` aborts re-queue the job instead of failing it.
 */
export async function runClaimedJob(
  job: JobRow,
  workerId: string,
  deps: RunnerDeps,
  control: {
    shutdown: AbortSignal;
    onHeartbeat?: () => Promise<void>;
    /**
     * Called once the engine's process has ended (or will not start): the job's core is free while its
     * results are stored and its outcome recorded, so a queue may start its next job meanwhile.
     */
    onEngineDone?: () => void;
  },
): Promise<RunEnd> {
  const { jobs, log } = deps;
  const startedAt = Date.parse(job.started_at ?? new Date().toISOString());
  const jobLog = log.child({
    jobId: job.id,
    kind: job.kind,
    attempt: job.attempts,
    workerId,
    queue: job.queue,
  });
  jobLog.info({ owner: job.owner_user_id ?? 'guest', analysis: job.analysis_type }, 'job started');

  const engineStop = new AbortController();
  let stopReason: StopReason | null = null;
  const stop = (reason: StopReason) => {
    if (stopReason) return;
    stopReason = reason;
    engineStop.abort();
  };
  const onShutdown = () => stop('shutdown');
  control.shutdown.addEventListener('abort', onShutdown, { once: true });

  const heartbeat = async (progress?: { percent: number; message?: string }) => {
    try {
      const lease = await jobs.renewLease(job, workerId, deps.leaseSeconds, progress);
      if (!lease.held) stop('lease_lost');
      else if (lease.cancelRequested) stop('cancel');
      await control.onHeartbeat?.();
    } catch (err) {
      jobLog.warn({ err }, 'lease renewal failed');
    }
  };
  const timer = setInterval(() => void heartbeat(), deps.heartbeatMs);

  let dir: string | null = null;
  let outcome: RunOutcome;
  let cores = 1;
  let engineStart: EngineStart | undefined;
  try {
    if (control.shutdown.aborted) stop('shutdown');
    dir = await jobs.files.stageIn(job.id, job.attempts);
    // A chained run: the source job's fields, read from storage here (jobs/fields-from.ts).
    const chained = job.kind === 'analysis' ? await stageFieldsFrom(jobs.files, dir) : null;
    if (chained && !chained.ok) stop('unavailable_source');
    const ranks =
      job.kind === 'analysis' && deps.mpi && deps.mpi.slots > 1
        ? chooseRanks(await readRankRequest(dir), deps.mpi.slots)
        : 1;
    const threads = threadsPerRank();
    cores = coresCharged(ranks, threads);
    if (ranks > 1) jobLog.info({ ranks, threadsPerRank: threads }, 'job runs on MPI ranks');
    let lastWrite = 0;
    const engineOutcome: EngineOutcome = stopReason
      ? { ok: false, code: 'cancelled', message: 'stopped before start', seconds: 0 }
      : await runEngine(deps.engine, {
          command: job.kind === 'meshing' ? 'mesh' : 'solve',
          jobDir: dir,
          timeoutSeconds: deps.limits.timeoutSeconds,
          memoryLimitMb: Math.floor(deps.limits.memoryLimitMb / ranks),
          mpi: ranks > 1 ? { ranks, threadsPerRank: threads, hostfile: deps.mpi?.hostfile } : undefined,
          signal: engineStop.signal,
          onStart: (how) => {
            engineStart = how;
          },
          env: deps.engineTestHooks
            ? { FIELDLINE_ENGINE_PLUGIN: 'fieldline_engine.testing.hooks' }
            : undefined,
          onProgress: (percent, message) => {
            const t = Date.now();
            if (t - lastWrite < PROGRESS_MIN_INTERVAL_MS && percent < 100) return;
            lastWrite = t;
            void heartbeat({ percent, message });
          },
        });
    control.onEngineDone?.();
    const reason = stopReason as StopReason | null;
    if (reason === 'shutdown') {
      const requeued = await jobs.requeue(job, workerId, 'Re-queued: the server or worker was restarting');
      jobLog.info({ requeued }, 'job re-queued for shutdown');
      return requeued ? 'requeued' : 'lost';
    }
    if (reason === 'lease_lost') {
      jobLog.warn('lease lost to another worker; dropping this attempt');
      return 'lost';
    }
    if (reason === 'cancel') {
      outcome = { status: 'cancelled', message: 'Job cancelled' };
    } else if (chained && !chained.ok) {
      outcome = { status: 'failed', code: 'fields_from_missing', message: chained.message };
    } else if (engineOutcome.ok) {
      await unstageFieldsFrom(dir);
      const files = await jobs.files.stageOut(job.id, dir);
      outcome = { status: 'completed', message: engineOutcome.message, files };
    } else {
      // A failed run may leave diagnostics the user needs (meshing problem markers): keep them.
      await unstageFieldsFrom(dir);
      await jobs.files.stageOut(job.id, dir);
      outcome = { status: 'failed', code: engineOutcome.code, message: engineOutcome.message };
    }
  } catch (err) {
    jobLog.error({ err }, 'job storage error');
    outcome = {
      status: 'failed',
      code: 'storage_error',
      message: 'The job could not read or store its files. Nothing was charged; please submit it again.',
    };
  } finally {
    clearInterval(timer);
    control.shutdown.removeEventListener('abort', onShutdown);
    if (dir) await jobs.files.cleanLocal(dir).catch(() => undefined);
  }

  const finishedAt = Date.now();
  const recorded = await jobs.finish(job, workerId, outcome, { startedAt, finishedAt, cores });
  const seconds = (finishedAt - startedAt) / 1000;
  if (!recorded || outcome.status !== 'completed') jobs.files.dropResults(job.id);
  if (!recorded) {
    jobLog.warn({ seconds }, 'job outcome discarded: the attempt no longer holds the job');
    return 'lost';
  }
  if (outcome.status === 'failed' && outcome.code === 'storage_error') {
    // Results stored before the failure are a half set: remove them. If storage is still away this fails
    // too; the job is failed (nothing reads its results) and retention deletes them later.
    await jobs.files
      .removeResults(job.id)
      .catch((err) => jobLog.warn({ err }, 'could not remove partial results'));
  }
  if (outcome.status === 'failed')
    jobLog.warn({ seconds, engineStart, code: outcome.code, reason: outcome.message }, 'job failed');
  else jobLog.info({ seconds, engineStart, status: outcome.status }, `job ${outcome.status}`);
  return 'finished';
}

/** The submit's rank request staged beside job.json, or null (older jobs, non-analysis jobs). */
async function readRankRequest(dir: string): Promise<RankRequest | null> {
  try {
    return parseRankRequest(await readFile(join(dir, RANKS_FILE), 'utf8'));
  } catch {
    return null;
  }
}
