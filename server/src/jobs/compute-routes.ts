import { SaveResponse } from '@fieldline/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireCaller } from '../admin/current-caller.ts';
import { DebugService } from '../admin/debug-service.ts';
import type { AppContext } from '../app-context.ts';
import { markUploadSaved } from '../geometry/upload-service.ts';
import { HttpError, notFound, parseWith } from '../http/errors.ts';
import { AwsBatchQueue } from './aws-batch-queue.ts';
import { syncBatchUsage } from './batch-usage.ts';
import { ownerOf } from './job-owner.ts';

const TestTaskBody = z.object({ task_arn: z.string().optional(), task_id: z.string().optional() });

/** Usage sync and the debug panel's compute calls (spec 000 §7). Routes parse, call a service, reply. */
export function registerComputeRoutes(app: FastifyInstance, ctx: AppContext): void {
  const debug = new DebugService(ctx);
  const api = ctx.api;

  api.add({
    method: 'post',
    path: '/api/user/sync-usage',
    summary: 'Reconcile usage from job records (idempotent)',
    tag: 'usage',
  });
  app.post('/api/user/sync-usage', async (request) => {
    const caller = requireCaller(request);
    const result = await ctx.compute.accounts.syncUsage(caller.userId);
    const queue = ctx.queue;
    if (queue instanceof AwsBatchQueue) {
      // COMPUTE_BACKEND=aws-batch: also the time Batch measured beyond the workers' own.
      const batch = await syncBatchUsage(
        { db: ctx.db, metering: ctx.compute.metering, describe: (ids) => queue.describe(ids) },
        caller.userId,
      );
      result.hours_added = Math.round((result.hours_added + batch.hours_added) * 1e6) / 1e6;
      result.jobs_reconciled += batch.jobs_reconciled;
    }
    return { success: true, ...result };
  });

  api.add({
    method: 'post',
    path: '/api/uploads/{id}/save',
    summary: 'Keep an upload past the retention period',
    tag: 'uploads',
    response: SaveResponse,
  });
  app.post('/api/uploads/:id/save', async (request) => {
    const { id } = (request.params ?? {}) as { id?: string };
    const owner = request.session ? ownerOf(request.session) : null;
    const upload = owner && id ? await ctx.uploads.findOwned(id, owner) : null;
    if (!upload) throw notFound('Upload not found');
    await markUploadSaved(ctx.db, upload.id);
    return { upload_id: upload.id, saved: true, message: 'Saved: this upload is kept until you delete it.' };
  });

  api.add({
    method: 'get',
    path: '/api/admin/debug-all-data',
    summary: 'Job table and counts (global for admins)',
    tag: 'debug',
  });
  app.get('/api/admin/debug-all-data', async (request) => debug.allData(requireCaller(request)));

  api.add({
    method: 'get',
    path: '/api/admin/debug-aws-connection',
    summary: 'The compute backend and its queues',
    tag: 'debug',
  });
  app.get('/api/admin/debug-aws-connection', async (request) => debug.awsConnection(requireCaller(request)));

  api.add({
    method: 'get',
    path: '/api/admin/list-recent-ecs-tasks',
    summary: "The caller's recent jobs as tasks",
    tag: 'debug',
  });
  app.get('/api/admin/list-recent-ecs-tasks', async (request) => debug.recentTasks(requireCaller(request)));

  api.add({
    method: 'post',
    path: '/api/admin/test-ecs-task',
    summary: "One job's backend state by task ARN or id",
    tag: 'debug',
    body: TestTaskBody,
  });
  app.post('/api/admin/test-ecs-task', async (request) => {
    const caller = requireCaller(request);
    const body = parseWith(TestTaskBody, request.body ?? {});
    const ref = (body.task_arn ?? body.task_id ?? '').trim();
    if (!ref) throw new HttpError(400, 'invalid_request', 'Please enter a task ARN or task ID');
    const result = await debug.testTask(caller, ref);
    if (!result) throw notFound('Task not found');
    return result;
  });
}
