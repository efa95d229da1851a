import type { FastifyBaseLogger } from 'fastify';
import { type EngineLocation, runEngine } from '../engine/engine-runner.ts';
import type { JobRow, JobService } from './job-service.ts';

export interface ExecutorLimits {
  timeoutSeconds: number;
  memoryLimitMb: number;
}

const LEASE_SECONDS = 120;
const PROGRESS_MIN_INTERVAL_MS = 500;

/** Runs one claimed job through the engine and records the outcome in the job row. */
export async function executeJob(
  job: JobRow,
  deps: { jobs: JobService; engine: EngineLocation; limits: ExecutorLimits; log: FastifyBaseLogger },
  signal?: AbortSignal,
): Promise<void> {
  const { jobs, log } = deps;
  const jobLog = log.child({ jobId: job.id, kind: job.kind });
  const command = job.kind === 'meshing' ? 'mesh' : 'solve';
  let lastWrite = 0;
  jobLog.info({ attempt: job.attempts }, 'job started');
  const outcome = await runEngine(deps.engine, {
    command,
    jobDir: jobs.files.dir(job.id),
    timeoutSeconds: deps.limits.timeoutSeconds,
    memoryLimitMb: deps.limits.memoryLimitMb,
    signal,
    onProgress: (percent, message) => {
      const t = Date.now();
      if (t - lastWrite < PROGRESS_MIN_INTERVAL_MS && percent < 100) return;
      lastWrite = t;
      jobs
        .reportProgress(job.id, percent, message, LEASE_SECONDS)
        .catch((err) => jobLog.warn({ err }, 'progress write failed'));
    },
  });
  if (outcome.ok) {
    await jobs.complete(
      job.id,
      jobs.files.relative(job.id, 'results.json'),
      outcome.seconds,
      outcome.message,
    );
    jobLog.info({ seconds: outcome.seconds }, 'job completed');
  } else {
    await jobs.fail(job.id, outcome.code, outcome.message, outcome.seconds);
    jobLog.warn({ seconds: outcome.seconds, code: outcome.code, reason: outcome.message }, 'job failed');
  }
}

export { LEASE_SECONDS };
