import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, ledgerRows, subscriptionInfo } from '../support/billing.ts';
import { signedInUser, submit } from '../support/compute.ts';
import { createTestApp, type TestApp, waitForJob } from '../support/test-app.ts';
import { registerTestAdmin } from '../support/users.ts';

// Usage from real jobs (the engine on a one-cell box), Recent Activity, sync and the debug panel's scope.
let t: TestApp;
let subscriber: { userId: string; cookie: string };
let tokenUser: { userId: string; cookie: string };
const jobsOf: Record<string, string[]> = {};

async function runJob(user: { userId: string; cookie: string }) {
  const res = await submit(t.app, user.cookie);
  expect(res.statusCode).toBe(200);
  const id = res.json().job_id as string;
  const { body } = await waitForJob(t.app, id, user.cookie);
  expect(body.status).toBe('completed');
  jobsOf[user.userId] = [...(jobsOf[user.userId] ?? []), id];
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  subscriber = await signedInUser(t);
  tokenUser = await signedInUser(t);
  const { sessionId } = (
    await call(t.app, subscriber.cookie, 'POST', '/api/create-checkout-session', {
      priceId: 'local_price_single',
    })
  ).json();
  await call(t.app, subscriber.cookie, 'POST', `/api/checkout/local/${sessionId}/complete`);
  await runJob(subscriber);
  await runJob(subscriber);
  await runJob(tokenUser);
});
afterAll(async () => t.close());

const jobRows = (userId: string) =>
  t.ctx.db.selectFrom('jobs').selectAll().where('owner_user_id', '=', userId).execute();

describe('usage from charged jobs', () => {
  it('counts a subscriber’s hours as the sum of the charged jobs, with the last computation time', async () => {
    const info = await subscriptionInfo(t.app, subscriber.cookie);
    const jobs = await jobRows(subscriber.userId);
    const charged = jobs.reduce((sum, j) => sum + (j.cost_hours ?? 0), 0);
    const ledger = (await ledgerRows(t.ctx, subscriber.userId)).filter((r) => r.entry_type === 'job_charge');
    console.log(
      `subscriber: ${jobs.length} jobs, ${(charged * 3600).toFixed(2)} s charged, info ${info.compute_hours_used} h`,
    );
    expect(ledger).toHaveLength(2);
    expect(charged).toBeGreaterThan(0);
    expect(info.compute_hours_used).toBeCloseTo(charged, 6);
    expect(info.hours_used).toBe(info.compute_hours_used);
    expect(info.hours_remaining).toBeCloseTo(10 - charged, 6);
    expect(info.tokens_available).toBe(2); // inside the allowance: no tokens spent
    expect(info.last_compute_time).toBe(
      ledger
        .map((r) => r.created_at)
        .sort()
        .at(-1),
    );
  });

  it('charges a token-plan user tokens for the same work, and keeps available = purchased − used', async () => {
    const info = await subscriptionInfo(t.app, tokenUser.cookie);
    const [job] = await jobRows(tokenUser.userId);
    expect(job?.cost_tokens).toBeGreaterThan(0);
    expect(info.tokens_used).toBeCloseTo(job?.cost_tokens ?? 0, 6);
    expect(info.tokens_available).toBeCloseTo(info.tokens_purchased - info.tokens_used, 6);
    expect(info.compute_hours_used).toBe(0);
  });

  it('answers sync-usage with success and nothing to add when the ledger is complete', async () => {
    const res = await call(t.app, subscriber.cookie, 'POST', '/api/user/sync-usage');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, hours_added: 0 });
    expect((await call(t.app, null, 'POST', '/api/user/sync-usage')).statusCode).toBe(401);
  });
});

describe('GET /api/user/recent-jobs', () => {
  it("lists the caller's own jobs, newest first, and never anyone else's", async () => {
    const mine = (await call(t.app, subscriber.cookie, 'GET', '/api/user/recent-jobs')).json().jobs;
    expect(mine.map((j: { id: string }) => j.id).sort()).toEqual(
      [...(jobsOf[subscriber.userId] ?? [])].sort(),
    );
    expect(mine[0]).toMatchObject({ kind: 'analysis', analysis_type: 'em', status: 'completed' });
    expect(mine[0].compute_seconds).toBeGreaterThan(0);
    expect(Date.parse(mine[0].queued_at)).toBeGreaterThanOrEqual(Date.parse(mine[1].queued_at));
    const theirs = (await call(t.app, tokenUser.cookie, 'GET', '/api/user/recent-jobs')).json().jobs;
    expect(theirs.map((j: { id: string }) => j.id)).toEqual(jobsOf[tokenUser.userId]);
    expect((await call(t.app, null, 'GET', '/api/user/recent-jobs')).statusCode).toBe(401);
  });
});

describe('debug panel scope', () => {
  it('never shows global data to a non-admin; an admin sees the totals', async () => {
    const total = Object.values(jobsOf).flat().length;
    const own = jobsOf[subscriber.userId]?.length ?? 0;
    const user = (await call(t.app, subscriber.cookie, 'GET', '/api/admin/debug-all-data')).json();
    expect(user).toMatchObject({ table_exists: true, user_logs_count: own, all_logs_count: own });
    const tasks = (await call(t.app, subscriber.cookie, 'GET', '/api/admin/list-recent-ecs-tasks')).json()
      .tasks;
    expect(tasks.map((x: { taskArn: string }) => x.taskArn.split('/').pop()).sort()).toEqual(
      [...(jobsOf[subscriber.userId] ?? [])].sort(),
    );
    const other = jobsOf[tokenUser.userId]?.[0];
    const probe = await call(t.app, subscriber.cookie, 'POST', '/api/admin/test-ecs-task', {
      task_arn: other,
    });
    expect(probe.statusCode).toBe(404);
    const empty = await call(t.app, subscriber.cookie, 'POST', '/api/admin/test-ecs-task', {
      task_arn: '  ',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Please enter a task ARN or task ID');

    const admin = await registerTestAdmin(t.app, t.ctx);
    const all = (await call(t.app, admin.cookie, 'GET', '/api/admin/debug-all-data')).json();
    expect(all).toMatchObject({ user_logs_count: 0, all_logs_count: total });
  });
});
