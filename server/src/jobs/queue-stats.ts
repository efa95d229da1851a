import { QUEUE_NAMES, type QueueStats } from './job-queue.ts';
import type { JobService } from './job-service.ts';
import type { WorkerRegistry } from './worker-registry.ts';

/** Queue depth from the jobs table and live workers from the registry: the stats of a backend whose
 * workers run elsewhere (BullMQ, AWS Batch). */
export async function statsFromJobsTable(
  backend: QueueStats['backend'],
  jobs: JobService,
  registry: WorkerRegistry,
): Promise<QueueStats> {
  const [depth, live] = await Promise.all([jobs.countByQueue(), registry.live(backend)]);
  const queues = QUEUE_NAMES.map((name) => ({
    name,
    queued: depth[name]?.queued ?? 0,
    running: depth[name]?.running ?? 0,
  }));
  return {
    backend,
    slots: live.slots,
    running: queues.reduce((n, q) => n + q.running, 0),
    queued: queues.reduce((n, q) => n + q.queued, 0),
    workers: live.workers,
    queues,
  };
}
