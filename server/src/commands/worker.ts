import pino from 'pino';
import { createCompute } from '../compute.ts';
import type { AppConfig } from '../config.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { engineLocation } from '../engine/engine-location.ts';
import { BullmqWorker } from '../jobs/bullmq-worker.ts';
import { loadOrCreateSecrets } from '../secrets.ts';

/**
 * `fieldline worker`: one process per machine (or several), each running up to JOB_SLOTS engine
 * processes. SIGTERM/SIGINT stop it gracefully: running jobs get SHUTDOWN_GRACE_SECONDS to finish,
 * then go back to the queue for another worker.
 */
export async function runWorker(config: AppConfig): Promise<void> {
  if (!config.redisUrl)
    throw new Error('fieldline worker needs REDIS_URL (the BullMQ queue to take jobs from)');
  const log = pino({ level: config.logLevel, base: { role: 'worker', pid: process.pid } });
  const secrets = loadOrCreateSecrets(config.dataDir);
  const { db, close } = openDatabase(config.databaseUrl, (err) =>
    log.warn({ err }, 'database connection lost while idle; the next query reconnects'),
  );
  await migrateToLatest(db);
  const engine = engineLocation(config, true, log);
  const compute = createCompute(config, db, secrets, engine, log);
  const worker = new BullmqWorker({
    ...compute.runner,
    redisUrl: config.redisUrl,
    slots: config.jobSlots,
    registry: compute.registry,
    log,
  });
  await worker.start();
  engine.standby?.start();
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker shutting down');
    await worker.stop(config.compute.shutdownGraceSeconds * 1000);
    await engine.standby?.close();
    await close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}
