import type { FastifyBaseLogger } from 'fastify';
import { ComputeAccounts } from './billing/compute-accounts.ts';
import { Metering } from './billing/metering.ts';
import { PlanCatalog } from './billing/plan-catalog.ts';
import { UsageLedger } from './billing/usage-ledger.ts';
import { UserPlans } from './billing/user-plans.ts';
import type { AppConfig } from './config.ts';
import type { Db } from './db/database.ts';
import type { EngineLocation } from './engine/engine-runner.ts';
import { AwsBatchQueue } from './jobs/aws-batch-queue.ts';
import { BullmqQueue } from './jobs/bullmq-queue.ts';
import { EmbeddedQueue } from './jobs/embedded-queue.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import type { RunnerDeps } from './jobs/job-runner.ts';
import { JobService } from './jobs/job-service.ts';
import { JobStorage } from './jobs/job-storage.ts';
import { WorkerRegistry } from './jobs/worker-registry.ts';
import type { AppSecrets } from './secrets.ts';
import { createStorage } from './storage/create-storage.ts';
import type { EncryptedStorage } from './storage/encrypted-storage.ts';

/**
 * Everything that runs, meters and stores jobs; the API server, `fieldline worker` and `batch-run` all
 * build it here, the composition root: billing's metering is handed to the jobs as their `JobMetering`,
 * so jobs/ never imports billing/.
 */
export interface Compute {
  catalog: PlanCatalog;
  storage: EncryptedStorage;
  ledger: UsageLedger;
  userPlans: UserPlans;
  metering: Metering;
  jobs: JobService;
  registry: WorkerRegistry;
  runner: RunnerDeps;
  accounts: ComputeAccounts;
  db: Db;
}

/** Job inputs the embedded queue keeps in memory between a job's submit and its stage-in (JobStorage). */
const KEPT_INPUT_BYTES = 32 * 1024 * 1024;

/** Lease heartbeat: often enough that a cancel lands within about a second. */
const HEARTBEAT_MS = 1000;

export function createCompute(
  config: AppConfig,
  db: Db,
  secrets: AppSecrets,
  engine: EngineLocation,
  log: FastifyBaseLogger,
): Compute {
  const c = config.compute;
  const catalog = PlanCatalog.fromFile(c.plansFile);
  const storage = createStorage(config.storage, secrets.storageKey);
  const ledger = new UsageLedger(db);
  const userPlans = new UserPlans(db, catalog);
  const metering = new Metering(ledger, userPlans, catalog, c.tokensPerComputeHour);
  // The embedded queue runs the jobs this process writes: their inputs are kept for its stage-in.
  const keepInputBytes = config.computeBackend === 'embedded' ? KEPT_INPUT_BYTES : 0;
  const jobs = new JobService(db, new JobStorage(storage, c.workDir, keepInputBytes), metering, {
    maxAttempts: c.maxAttempts,
    retentionHours: c.retentionHours,
  });
  const runner: RunnerDeps = {
    jobs,
    engine,
    limits: { timeoutSeconds: config.jobTimeoutSeconds, memoryLimitMb: config.jobMemoryLimitMb },
    mpi: { slots: config.mpiSlots, hostfile: config.mpiHostfile },
    leaseSeconds: c.leaseSeconds,
    heartbeatMs: Math.min(HEARTBEAT_MS, (c.leaseSeconds * 1000) / 3),
    log,
    engineTestHooks: c.engineTestHooks,
  };
  const accounts = new ComputeAccounts({
    db,
    ledger,
    userPlans,
    metering,
    jobs,
    tokensPerHour: c.tokensPerComputeHour,
    guestMaxModelMb: c.guestMaxModelMb,
  });
  return {
    catalog,
    storage,
    ledger,
    userPlans,
    metering,
    jobs,
    registry: new WorkerRegistry(db),
    runner,
    accounts,
    db,
  };
}

/** The API server's queue: COMPUTE_BACKEND, by default BullMQ when REDIS_URL is set, else the embedded scheduler. */
export function createQueue(config: AppConfig, compute: Compute, log: FastifyBaseLogger): JobQueue {
  if (config.computeBackend === 'aws-batch') {
    return new AwsBatchQueue({
      config: config.batch,
      db: compute.db,
      jobs: compute.jobs,
      registry: compute.registry,
      jobTimeoutSeconds: config.jobTimeoutSeconds,
      log,
    });
  }
  if (config.computeBackend === 'bullmq') {
    if (!config.redisUrl) throw new Error('COMPUTE_BACKEND=bullmq needs REDIS_URL');
    return new BullmqQueue({
      redisUrl: config.redisUrl,
      jobs: compute.jobs,
      registry: compute.registry,
      leaseSeconds: config.compute.leaseSeconds,
      log,
      reap: true,
    });
  }
  return new EmbeddedQueue({ ...compute.runner, slots: config.jobSlots, registry: compute.registry, log });
}
