import { hostname } from 'node:os';
import pino from 'pino';
import { createCompute } from '../compute.ts';
import type { AppConfig } from '../config.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { engineLocation } from '../engine/engine-location.ts';
import { type RunEnd, runClaimedJob } from '../jobs/job-runner.ts';
import { loadOrCreateSecrets } from '../secrets.ts';

export type BatchRunResult = RunEnd | 'skipped';

/**
 * `fieldline batch-run <jobId>`: what an AWS Batch container runs (COMPUTE_BACKEND=aws-batch). Claims
 * the job in the DB (a duplicate or late container finds it held or finished and exits 0), stages the
 * encrypted inputs from storage (S3), runs the engine with the usual limits while renewing the lease,
 * writes the results back and records the outcome and charge; then exits. SIGTERM (TerminateJob, a
 * scale-in) re-queues the job within SHUTDOWN_GRACE_SECONDS, and the server submits it again.
 * The worker id names the Batch job (`batch:<AWS_BATCH_JOB_ID>`), so job_runs link to Batch.
 */
export async function runBatchJob(config: AppConfig, jobId: string): Promise<BatchRunResult> {
  const batchJobId = process.env.AWS_BATCH_JOB_ID;
  const workerId = batchJobId ? `batch:${batchJobId}` : `batch-local:${hostname()}:${process.pid}`;
  const log = pino({ level: config.logLevel, base: { role: 'batch-run', pid: process.pid, jobId } });
  const secrets = loadOrCreateSecrets(config.dataDir);
  const { db, close } = openDatabase(config.databaseUrl);
  const shutdown = new AbortController();
  const onSignal = (signal: string) => {
    log.info({ signal }, 'batch-run stopping');
    shutdown.abort();
  };
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
  try {
    await migrateToLatest(db);
    // One job per container: nothing to keep warm for.
    const compute = createCompute(config, db, secrets, engineLocation(config, false), log);
    const claim = await compute.jobs.claim(jobId, workerId, config.compute.leaseSeconds);
    if (!claim.claimed) {
      log.info({ reason: claim.reason }, 'job not claimed; nothing to run');
      return 'skipped';
    }
    await compute.registry.register(workerId, 'aws-batch', 1);
    try {
      return await runClaimedJob(claim.job, workerId, compute.runner, {
        shutdown: shutdown.signal,
        onHeartbeat: () => compute.registry.heartbeat(workerId, 1),
      });
    } finally {
      await compute.registry.unregister(workerId).catch(() => undefined);
    }
  } finally {
    await close();
  }
}
