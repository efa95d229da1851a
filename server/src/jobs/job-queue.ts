export interface QueueDepth {
  name: string;
  queued: number;
  running: number;
}

export interface QueueStats {
  backend: string;
  /** Engine processes the live workers can run at once. */
  slots: number;
  running: number;
  queued: number;
  workers: number;
  queues: QueueDepth[];
}

/** The named queues; a plan's `features.priority_queue` picks one. Workers always drain `priority` first. */
export const QUEUE_NAMES = ['priority', 'standard'] as const;

/** What the API needs from a queue. The DB holds job state; a queue only decides when and where jobs run. */
export interface JobQueue {
  readonly backend: 'embedded' | 'bullmq' | 'aws-batch';
  /** Where the backend is (host or region), for debug output; never credentials. */
  readonly location: string;
  start(): Promise<void>;
  /** Announces a job that is already stored with status 'queued'. */
  enqueue(jobId: string, queueName: string): Promise<void>;
  /** Drops a queued job from the transport (the DB already says cancelled). Running jobs stop cooperatively. */
  cancel(jobId: string): Promise<void>;
  stats(): Promise<QueueStats>;
  /** The transport's own view of a job (e.g. BullMQ's state), for the debug endpoints. */
  backendState(jobId: string): Promise<string | null>;
  /** Stops taking work, lets running jobs finish for `graceMs`, then re-queues what is left. */
  stop(graceMs?: number): Promise<void>;
}
