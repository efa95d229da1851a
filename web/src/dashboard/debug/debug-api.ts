import { BILLING_MESSAGES, type RecentTask } from '@fieldline/contracts';

/** The debug panel's calls (spec 000 §7 /api/admin/*): results are shown as returned. */

export type DebugOutcome = { ok: true; data: unknown } | { ok: false; message: string };

async function readBody(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return {};
  }
}

function errorText(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.message === 'string' && b.message) return b.message;
    if (typeof b.error === 'string' && b.error) return b.error;
  }
  return fallback;
}

async function getJson(url: string): Promise<DebugOutcome> {
  try {
    const res = await fetch(url, { credentials: 'include' });
    const body = await readBody(res);
    if (!res.ok) return { ok: false, message: errorText(body, `Request failed (${res.status})`) };
    return { ok: true, data: body };
  } catch {
    return { ok: false, message: BILLING_MESSAGES.debugNetworkError };
  }
}

export const debugDatabase = () => getJson('/api/admin/debug-all-data');
export const debugAwsConnection = () => getJson('/api/admin/debug-aws-connection');

/** POST /api/admin/test-ecs-task {task_arn}; the answer is displayed raw, errors included. */
export async function testTask(taskArn: string): Promise<DebugOutcome> {
  try {
    const res = await fetch('/api/admin/test-ecs-task', {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task_arn: taskArn }),
    });
    return { ok: true, data: await readBody(res) };
  } catch {
    return { ok: false, message: BILLING_MESSAGES.debugNetworkError };
  }
}

/** GET /api/admin/list-recent-ecs-tasks: success and the tasks list, or the error (spec 000 §8). */
export async function listRecentTasks(): Promise<
  { ok: true; tasks: RecentTask[]; data: unknown } | { ok: false; message: string }
> {
  let res: Response;
  try {
    res = await fetch('/api/admin/list-recent-ecs-tasks', { credentials: 'include' });
  } catch {
    return { ok: false, message: BILLING_MESSAGES.listTasksNetworkError };
  }
  const body = await readBody(res);
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  if (res.ok && b.success === true && Array.isArray(b.tasks))
    return { ok: true, tasks: b.tasks as RecentTask[], data: body };
  return { ok: false, message: errorText(body, BILLING_MESSAGES.listTasksFailed) };
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
