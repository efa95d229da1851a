import { z } from 'zod';
import { RecentTask } from './billing.ts';

/**
 * Replies of the dashboard debug panel's calls (spec 000 §7 /api/admin/*). Objects are loose: the AWS
 * Batch backend adds its own fields (job definition, queue ARNs, Batch status) beside the common ones.
 */

export const DebugAllDataResponse = z.object({
  success: z.literal(true),
  table_exists: z.boolean(),
  table_name: z.string(),
  user_logs_count: z.number().int(),
  all_logs_count: z.number().int(),
  scope: z.enum(['all users', 'your jobs only']),
});
export type DebugAllDataResponse = z.infer<typeof DebugAllDataResponse>;

export const DebugAwsConnectionResponse = z.looseObject({
  success: z.literal(true),
  /** The compute backend: local, bullmq or aws-batch. */
  backend: z.string(),
  aws_region: z.string(),
  /** The queue the caller's plan submits to. */
  queue_name: z.string(),
  job_queues: z.array(z.looseObject({ jobQueueName: z.string(), state: z.string(), status: z.string() })),
  workers: z.number().int(),
  /** Where job files are stored; the location only for administrators. */
  storage: z.object({ backend: z.string(), location: z.string().optional() }),
});
export type DebugAwsConnectionResponse = z.infer<typeof DebugAwsConnectionResponse>;

/** A recent task as the server sends it: the spec's fields and the desired status and stop reason. */
export const DebugTask = RecentTask.extend({
  desiredStatus: z.string(),
  stoppedReason: z.string().nullable(),
}).loose();

export const DebugRecentTasksResponse = z.object({ success: z.literal(true), tasks: z.array(DebugTask) });
export type DebugRecentTasksResponse = z.infer<typeof DebugRecentTasksResponse>;

export const DebugTestTaskResponse = z.object({ success: z.literal(true), task: DebugTask });
export type DebugTestTaskResponse = z.infer<typeof DebugTestTaskResponse>;
