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

const TestTaskBody = z.object({ task_arn: z.string().optional(), task_id: z.string().optional() });

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
    handler: async ({ auth, body }) => {
      const ref = (body.task_arn ?? body.task_id ?? '').trim();
      if (!ref) throw new HttpError(400, 'invalid_request', 'Please enter a task ARN or task ID');
      const result = await debug.testTask(auth, ref);
      if (!result) throw notFound('Task not found');
      return result;
    },
  });
}
