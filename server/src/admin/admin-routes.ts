import {
  DebugAllDataResponse,
  DebugAwsConnectionResponse,
  DebugRecentTasksResponse,
  DebugTestTaskResponse,
} from '@fieldline/contracts';
import { z } from 'zod';
import { HttpError, notFound } from '../http/errors.ts';
import type { Route } from '../http/route.ts';
import { requireCaller } from './current-caller.ts';
import type { DebugService } from './debug-service.ts';

const TASK_REF_MISSING = 'Please enter a task ARN or task ID';
const taskRef = z.string().regex(/\S/);
/** A task ARN or a task id (either may be blank when the other is given), so /api/docs says one is needed. */
const TestTaskBody = z.union([
  z.object({ task_arn: taskRef, task_id: z.string().optional() }),
  z.object({ task_arn: z.string().optional(), task_id: taskRef }),
]);

/** The dashboard debug panel's calls (spec 000 §7 /api/admin/*): global for admins, the caller's own otherwise. */
export function registerAdminRoutes(route: Route, debug: DebugService): void {
  route({
    method: 'get',
    path: '/api/admin/debug-all-data',
    summary: 'Job table and counts (global for admins)',
    tag: 'debug',
    response: DebugAllDataResponse,
    auth: requireCaller,
    handler: ({ auth }) => debug.allData(auth),
  });

  route({
    method: 'get',
    path: '/api/admin/debug-aws-connection',
    summary: 'The compute backend and its queues',
    tag: 'debug',
    response: DebugAwsConnectionResponse,
    auth: requireCaller,
    handler: ({ auth }) => debug.awsConnection(auth),
  });

  route({
    method: 'get',
    path: '/api/admin/list-recent-ecs-tasks',
    summary: "The caller's recent jobs as tasks",
    tag: 'debug',
    response: DebugRecentTasksResponse,
    auth: requireCaller,
    handler: ({ auth }) => debug.recentTasks(auth),
  });

  route({
    method: 'post',
    path: '/api/admin/test-ecs-task',
    summary: "One job's backend state by task ARN or id",
    tag: 'debug',
    response: DebugTestTaskResponse,
    auth: requireCaller,
    body: TestTaskBody,
    emptyBody: {},
    invalid: () => new HttpError(400, 'invalid_request', TASK_REF_MISSING),
    handler: async ({ auth, body }) => {
      // The first one given: a blank ARN beside a task id is not a lookup of "".
      const ref = [body.task_arn, body.task_id].map((r) => r?.trim()).find((r) => r) ?? '';
      const result = await debug.testTask(auth, ref);
      if (!result) throw notFound('Task not found');
      return result;
    },
  });
}
