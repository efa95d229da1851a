import { BILLING_MESSAGES, type RecentTask } from '@fieldline/contracts';
import { type ApiResponse, errorText, request } from '../../api/http.ts';

/** The debug panel's calls (spec 000 §7 /api/admin/*): results are shown as returned. */

export type DebugOutcome = { ok: true; data: unknown } | { ok: false; message: string };

/** A body that is not JSON reads as {} (shown as such). */
const data = (res: ApiResponse): unknown => res.json ?? {};
const failure = (res: ApiResponse, fallback: string) => errorText(res.json, ['message', 'error']) ?? fallback;

async function getJson(url: string): Promise<DebugOutcome> {
  try {
    const res = await request(url, { credentials: 'include' });
    if (!res.ok) return { ok: false, message: failure(res, `Request failed (${res.status})`) };
    return { ok: true, data: data(res) };
  } catch {
    return { ok: false, message: BILLING_MESSAGES.debugNetworkError };
  }
}

export const debugDatabase = () => getJson('/api/admin/debug-all-data');
export const debugAwsConnection = () => getJson('/api/admin/debug-aws-connection');

/** POST /api/admin/test-ecs-task {task_arn}; the answer is displayed raw, errors included. */
export async function testTask(taskArn: string): Promise<DebugOutcome> {
  try {
    const res = await request('/api/admin/test-ecs-task', {
      method: 'POST',
      credentials: 'include',
      json: { task_arn: taskArn },
    });
    return { ok: true, data: data(res) };
  } catch {
    return { ok: false, message: BILLING_MESSAGES.debugNetworkError };
  }
}

/** GET /api/admin/list-recent-ecs-tasks: success and the tasks list, or the error (spec 000 §8). */
export async function listRecentTasks(): Promise<
  { ok: true; tasks: RecentTask[]; data: unknown } | { ok: false; message: string }
> {
  let res: ApiResponse;
  try {
    res = await request('/api/admin/list-recent-ecs-tasks', { credentials: 'include' });
  } catch {
    return { ok: false, message: BILLING_MESSAGES.listTasksNetworkError };
  }
  const b = res.body;
  if (res.ok && b.success === true && Array.isArray(b.tasks))
    return { ok: true, tasks: b.tasks as RecentTask[], data: data(res) };
  return { ok: false, message: failure(res, BILLING_MESSAGES.listTasksFailed) };
}

/** Spec 000 §3: the job id is the ARN's last path segment; the name is the task definition before its version. */
export function taskId(taskArn: string): string {
  return taskArn.split('/').pop() ?? taskArn;
}

export function taskName(taskDefinitionArn: string): string {
  const last = taskDefinitionArn.split('/').pop() ?? taskDefinitionArn;
  const colon = last.lastIndexOf(':');
  return colon > 0 ? last.slice(0, colon) : last;
}
