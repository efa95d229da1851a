export interface QueueStats {
  backend: string;
  slots: number;
  running: number;
  queued: number;
  workers: number;
}

/** What the API needs from a queue. The DB holds job state; a queue only decides when jobs run. */
export interface JobQueue {
  start(): Promise<void>;
  /** Announces a job that is already stored with status 'queued'. */
  enqueue(jobId: string, queueName: string): Promise<void>;
  cancel(jobId: string): Promise<boolean>;
  stats(): Promise<QueueStats>;
  /** Stops taking work and waits for running jobs (or re-queues them after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}
