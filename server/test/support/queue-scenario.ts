import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { AppContext } from '../../src/app-context.ts';
import { creditTokens, signedInUser, submit, tinyJob } from './compute.ts';

export interface ScenarioUser {
  userId: string;
  cookie: string;
  plan: 'token' | 'pro';
}

/** Three users: two on the token plan (standard queue), one on `pro` (priority queue). */
export async function scenarioUsers(t: { app: FastifyInstance; ctx: AppContext }): Promise<ScenarioUser[]> {
  const { ctx } = t;
  const users: ScenarioUser[] = [];
  for (const plan of ['token', 'token', 'pro'] as const) {
    const u = await signedInUser(t);
    await creditTokens(ctx, u.userId, 1);
    if (plan === 'pro') await ctx.compute.userPlans.setPlan(u.userId, 'pro');
    users.push({ ...u, plan });
  }
  return users;
}

/**
 * Submits 20 jobs: 7 + 7 standard jobs from the token users first, then 6 priority jobs from the pro
 * user. Returns the ids and which standard jobs were still waiting when the priority jobs arrived.
 */
export async function submitTwenty(
  app: FastifyInstance,
  ctx: AppContext,
  users: ScenarioUser[],
  sleepSeconds: number,
) {
  const [a, b, c] = users as [ScenarioUser, ScenarioUser, ScenarioUser];
  const ids: { id: string; user: ScenarioUser }[] = [];
  for (let i = 0; i < 7; i++) {
    for (const u of [a, b]) {
      const res = await submit(app, u.cookie, tinyJob(1 + i), sleepSeconds);
      expect(res.statusCode, res.body).toBe(200);
      ids.push({ id: res.json().job_id, user: u });
    }
  }
  for (let i = 0; i < 6; i++) {
    const res = await submit(app, c.cookie, tinyJob(1 + i), sleepSeconds);
    expect(res.statusCode, res.body).toBe(200);
    ids.push({ id: res.json().job_id, user: c });
  }
  // Taken once every priority job is queued: standard jobs that start while the priority jobs are still
  // being submitted have not been overtaken by anything.
  const waitingStandard = (
    await ctx.db
      .selectFrom('jobs')
      .select('id')
      .where('status', '=', 'queued')
      .where('queue', '=', 'standard')
      .execute()
  ).map((r) => r.id);
  return { ids, waitingStandard };
}

export async function waitAllFinished(ctx: AppContext, ids: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await ctx.db
      .selectFrom('jobs')
      .select('id')
      .where('id', 'in', ids)
      .where('status', 'in', ['queued', 'running'])
      .execute();
    if (open.length === 0) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  const states = await ctx.db
    .selectFrom('jobs')
    .select(['id', 'status', 'attempts', 'message'])
    .where('id', 'in', ids)
    .execute();
  throw new Error(
    `jobs still open: ${JSON.stringify(states.filter((s) => s.status === 'queued' || s.status === 'running'))}`,
  );
}

/** Every job completed, exactly one completed run each, one charge each, usage = sum of job times. */
export async function assertExactlyOnceAndBilled(ctx: AppContext, ids: string[], users: ScenarioUser[]) {
  const jobs = await ctx.db.selectFrom('jobs').selectAll().where('id', 'in', ids).execute();
  expect(jobs).toHaveLength(ids.length);
  for (const j of jobs) expect(j.status, `${j.id}: ${j.error_message}`).toBe('completed');

  const runs = await ctx.db.selectFrom('job_runs').selectAll().where('job_id', 'in', ids).execute();
  const completedRuns = new Map<string, number>();
  for (const r of runs)
    if (r.outcome === 'completed') completedRuns.set(r.job_id, (completedRuns.get(r.job_id) ?? 0) + 1);
  for (const id of ids) expect(completedRuns.get(id), `completed runs of ${id}`).toBe(1);

  const charges = await ctx.db
    .selectFrom('usage_ledger')
    .selectAll()
    .where('entry_type', '=', 'job_charge')
    .where('job_id', 'in', ids)
    .execute();
  expect(charges).toHaveLength(ids.length);
  expect(new Set(charges.map((c) => c.job_id)).size).toBe(ids.length);

  for (const u of users) {
    const mine = jobs.filter((j) => j.owner_user_id === u.userId);
    const hours = mine.reduce((s, j) => s + (j.compute_seconds ?? 0), 0) / 3600;
    const summary = await ctx.compute.accounts.summary(u.userId);
    if (u.plan === 'pro') {
      expect(summary.compute_hours_used).toBeCloseTo(hours, 5);
      expect(summary.tokens_used).toBe(0);
    } else {
      expect(summary.tokens_used).toBeCloseTo(hours, 5);
      expect(summary.tokens_available).toBeCloseTo(1 - hours, 5);
    }
    // Each job's charge matches its own worker-measured time.
    for (const j of mine) {
      const c = charges.find((x) => x.job_id === j.id);
      expect(c?.compute_seconds).toBeCloseTo(j.compute_seconds ?? -1, 6);
    }
  }
  return { jobs, runs };
}

/**
 * Priority jobs started (first attempt) before the standard jobs that were waiting when they were queued.
 * With `slots` jobs running at once, up to `slots - 1` of those standard jobs may be claimed in the same
 * instant as the last priority job (each worker records its own start), but no more.
 */
export async function assertPriorityOvertook(
  ctx: AppContext,
  priorityIds: string[],
  waitingStandard: string[],
  slots: number,
) {
  // More waiting jobs than slots, so a queue that ignored priority could not pass.
  expect(waitingStandard.length).toBeGreaterThan(slots);
  // A job's first start: a restart re-queues running jobs as a new run with the same attempt number.
  const firstStart = async (ids: string[]) => {
    const runs = await ctx.db
      .selectFrom('job_runs')
      .select(['job_id', 'started_at'])
      .where('job_id', 'in', ids)
      .where('attempt', '=', 1)
      .execute();
    const first = new Map<string, string>();
    for (const r of runs) {
      const seen = first.get(r.job_id);
      if (seen === undefined || r.started_at < seen) first.set(r.job_id, r.started_at);
    }
    return [...first.values()];
  };
  const priorityStarts = await firstStart(priorityIds);
  const standardStarts = await firstStart(waitingStandard);
  expect(priorityStarts).toHaveLength(priorityIds.length);
  const lastPriority = priorityStarts.sort().at(-1) as string;
  const earlier = standardStarts.filter((s) => s < lastPriority).sort();
  expect(
    earlier.length,
    `waiting standard jobs started before the last priority job (${lastPriority}): ${earlier.join(', ')}`,
  ).toBeLessThanOrEqual(slots - 1);
}
