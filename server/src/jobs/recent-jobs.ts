import { type RecentJob, RecentJobsResponse } from '@fieldline/contracts';
import { requireUser } from '../accounts/guards.ts';
import type { Route } from '../http/route.ts';
import type { JobService } from './job-service.ts';

const RECENT_JOBS = 10;

/** GET /api/user/recent-jobs: the caller's latest jobs, for the dashboard's Recent Activity. */
export function registerRecentJobsRoute(route: Route, jobs: JobService): void {
  route({
    method: 'get',
    path: '/api/user/recent-jobs',
    summary: "The caller's latest jobs (dashboard Recent Activity)",
    tag: 'jobs',
    auth: requireUser,
    response: RecentJobsResponse,
    handler: async ({ auth: user }, _request, reply) => {
      reply.header('cache-control', 'no-store');
      const rows = await jobs.listForUser(user.id, RECENT_JOBS);
      return { jobs: rows.map(toRecentJob) };
    },
  });
}

function toRecentJob(j: Awaited<ReturnType<JobService['listForUser']>>[number]): RecentJob {
  return {
    id: j.id,
    kind: j.kind,
    analysis_type: j.analysis_type,
    status: j.status,
    message: j.error_message ?? j.message,
    queued_at: j.queued_at,
    started_at: j.started_at,
    finished_at: j.finished_at,
    compute_seconds: j.compute_seconds,
    cost_tokens: j.cost_tokens,
    cost_hours: j.cost_hours,
    api_token_name: j.api_token_name,
  };
}
