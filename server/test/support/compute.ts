import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { AppContext } from '../../src/app-context.ts';
import type { JobRow } from '../../src/jobs/job-service.ts';
import { boxMesh, facesOnPlane } from './box-mesh.ts';
import { registerTestUser } from './users.ts';

/** A user registered through the real endpoint, with their signed-in cookie. */
export async function signedInUser(t: { app: FastifyInstance }): Promise<{ userId: string; cookie: string }> {
  const user = await registerTestUser(t.app);
  return { userId: user.id, cookie: user.cookie };
}

/** Credits tokens as a purchase would. */
export async function creditTokens(ctx: AppContext, userId: string, tokens: number): Promise<void> {
  await ctx.compute.ledger.append({
    user_id: userId,
    entry_type: 'purchase',
    tokens,
    hours: 0,
    compute_seconds: null,
    job_id: null,
    plan_id: null,
    source: 'test-purchase',
    source_id: randomUUID(),
    description: `test purchase of ${tokens} tokens`,
  });
}

/** The tiny engine job: electrostatics on a one-cell box (6 tetrahedra), about 0.7 s end to end. */
export function tinyJob(volts = 1) {
  const mesh = boxMesh([1, 1, 1], [1, 1, 1]);
  return {
    mesh_data: mesh,
    config: {
      analysisType: 'em',
      frequency: 0,
      dirichletFaceConditions: [
        { faces: facesOnPlane(mesh, 2, 0), voltage: 0 },
        { faces: facesOnPlane(mesh, 2, 1), voltage: volts },
      ],
    },
  };
}

/** A signed-in user's queued job, created straight through the job service (no queue, no engine). */
export async function queuedJob(
  t: { app: FastifyInstance; ctx: AppContext },
  tokens = 5,
): Promise<{ userId: string; cookie: string; job: JobRow }> {
  const { userId, cookie } = await signedInUser(t);
  await creditTokens(t.ctx, userId, tokens);
  const job = await t.ctx.jobs.create({
    owner: { userId, sessionHash: null },
    kind: 'analysis',
    analysisType: 'em',
    queue: 'standard',
    input: tinyJob(),
    planId: 'token',
  });
  return { userId, cookie, job };
}

/** A queued job claimed by `worker`: it stays `running` for as long as a test needs. */
export async function claimedJob(
  t: { app: FastifyInstance; ctx: AppContext },
  worker = 'w1',
): Promise<{ userId: string; cookie: string; job: JobRow }> {
  const { userId, cookie, job } = await queuedJob(t);
  const claim = await t.ctx.jobs.claim(job.id, worker, 60);
  if (!claim.claimed) throw new Error('not claimed');
  return { userId, cookie, job: claim.job };
}

export async function submit(
  app: FastifyInstance,
  cookie: string | null,
  payload: unknown = tinyJob(),
  sleepSeconds?: number,
) {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (sleepSeconds) headers['x-test-sleep-seconds'] = String(sleepSeconds);
  return app.inject({ method: 'POST', url: '/api/fea/submit', payload: payload as object, headers });
}

/** The shipped plans plus a `pro` plan on the priority queue and roomy limits for queue tests. */
export function writeTestPlans(dir: string, overrides: Record<string, unknown> = {}): string {
  const features = { support_level: 'email', max_file_size_mb: 100 };
  const plans = {
    token: {
      name: 'Pay As You Go',
      description: 'tokens',
      price_monthly: 0,
      billing_cycle: 'pay_as_you_go',
      compute_hours_per_month: 0,
      token_cost: 1,
      stripe_price_id: null,
      features: { ...features, priority_queue: false, concurrent_simulations: 10 },
    },
    single: {
      name: 'Single',
      description: 'monthly',
      price_monthly: 5,
      billing_cycle: 'monthly',
      compute_hours_per_month: 10,
      token_cost: 1,
      stripe_price_id: null,
      features: { ...features, priority_queue: false, concurrent_simulations: 10 },
    },
    pro: {
      name: 'Pro',
      description: 'priority',
      price_monthly: 50,
      billing_cycle: 'monthly',
      compute_hours_per_month: 100,
      token_cost: 0.5,
      stripe_price_id: null,
      features: { ...features, priority_queue: true, concurrent_simulations: 10 },
    },
    ...overrides,
  };
  const file = join(dir, 'plans.json');
  writeFileSync(file, JSON.stringify(plans));
  return file;
}

export async function pollUntil<T>(
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
  stepMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  throw new Error('condition not reached in time');
}

/**
 * A charge of one unit (a token on the test plans, or an hour) per compute hour is rounded to the ledger's
 * unit (1e-6), so it may differ from seconds / 3600 by half a unit plus the rounding of the stored seconds.
 */
export function expectHoursCharge(charge: number | null | undefined, seconds: number): void {
  expect(charge).not.toBeNull();
  expect(Math.abs((charge ?? Number.NaN) - seconds / 3600)).toBeLessThanOrEqual(1e-6);
}
