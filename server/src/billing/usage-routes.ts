import { SyncUsageResponse } from '@fieldline/contracts';
import { requireCaller } from '../admin/current-caller.ts';
import type { Route } from '../http/route.ts';
import type { UsageSync } from './usage-sync.ts';

/** Usage sync (spec 000 §7): reconcile the ledger from the job records. */
export function registerUsageRoutes(route: Route, usage: UsageSync): void {
  route({
    method: 'post',
    path: '/api/user/sync-usage',
    summary: 'Reconcile usage from job records (idempotent)',
    tag: 'usage',
    auth: requireCaller,
    response: SyncUsageResponse,
    handler: ({ auth: caller }) => usage.sync(caller.userId),
  });
}
