import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  creditTokens,
  expectHoursCharge,
  pollUntil,
  signedInUser,
  submit,
  tinyJob,
  writeTestPlans,
} from '../support/compute.ts';
import { createTestApp, type TestApp, waitForJob } from '../support/test-app.ts';

const plansDir = mkdtempSync(join(tmpdir(), 'fieldline-plans-'));
const ENV = { ENGINE_TEST_HOOKS: '1', JOB_MIN_ESTIMATE_SECONDS: '60', WELCOME_GRANT_TOKENS: '0' };

async function info(t: TestApp, jobId: string, cookie: string) {
  return (
    await t.app.inject({ method: 'GET', url: `/api/fea/results/${jobId}/info`, headers: { cookie } })
  ).json();
}

async function ledgerRows(t: TestApp, userId: string) {
  return t.ctx.db.selectFrom('usage_ledger').selectAll().where('user_id', '=', userId).execute();
}

describe('metering', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...ENV, PLANS_FILE: writeTestPlans(plansDir) });
  });
  afterAll(async () => t.close());

  it('charges a completed job once, in tokens, for the worker-measured compute time', async () => {
    const { userId, cookie } = await signedInUser(t);
    await creditTokens(t.ctx, userId, 1);
    const res = await submit(t.app, cookie);
    expect(res.statusCode, res.body).toBe(200);
    const { body } = await waitForJob(t.app, res.json().job_id, cookie);
    expect(body.status, body.error).toBe('completed');
    const job = await info(t, body.job_id, cookie);
    const started = Date.parse(job.started_at);
    const finished = Date.parse(job.finished_at);
    expect(job.compute_seconds).toBeCloseTo((finished - started) / 1000, 3);
    expectHoursCharge(job.cost_tokens, job.compute_seconds);
    expect(job.cost_hours).toBe(0);
    const rows = await ledgerRows(t, userId);
    const charges = rows.filter((r) => r.entry_type === 'job_charge');
    expect(charges).toHaveLength(1);
    expect(charges[0]?.tokens).toBeCloseTo(-job.cost_tokens, 6);
    const summary = await t.ctx.compute.accounts.summary(userId);
    expect(summary.tokens_available).toBeCloseTo(1 - job.cost_tokens, 6);
    expect(summary.tokens_used).toBeCloseTo(job.cost_tokens, 6);
    expect(summary.last_compute_time).not.toBeNull();

    // Reconciliation finds nothing to add, however often it runs.
    for (let i = 0; i < 2; i++) {
      const sync = await t.app.inject({ method: 'POST', url: '/api/user/sync-usage', headers: { cookie } });
      expect(sync.json()).toEqual({ success: true, hours_added: 0, jobs_reconciled: 0 });
    }
    expect(await ledgerRows(t, userId)).toHaveLength(rows.length);
  });

  it('charges subscriptions in compute-hours from the monthly allowance', async () => {
    const { userId, cookie } = await signedInUser(t);
    await t.ctx.compute.userPlans.setPlan(userId, 'single');
    const res = await submit(t.app, cookie);
    expect(res.statusCode, res.body).toBe(200);
    await waitForJob(t.app, res.json().job_id, cookie);
    const job = await info(t, res.json().job_id, cookie);
    expectHoursCharge(job.cost_hours, job.compute_seconds);
    expect(job.cost_tokens).toBe(0);
    const summary = await t.ctx.compute.accounts.summary(userId);
    expect(summary.compute_hours_used).toBeCloseTo(job.cost_hours, 6);
    expect(summary.compute_hours_limit).toBe(10);
  });

  it('sync-usage charges a finished job whose charge is missing, once', async () => {
    const { userId, cookie } = await signedInUser(t);
    await creditTokens(t.ctx, userId, 1);
    const res = await submit(t.app, cookie);
    const jobId = res.json().job_id;
    await waitForJob(t.app, jobId, cookie);
    // Simulate a charge lost before this ledger existed.
    await t.ctx.db
      .deleteFrom('usage_ledger')
      .where('source', '=', 'job')
      .where('source_id', '=', jobId)
      .execute();
    const job = await info(t, jobId, cookie);
    const first = (
      await t.app.inject({ method: 'POST', url: '/api/user/sync-usage', headers: { cookie } })
    ).json();
    expect(first.success).toBe(true);
    expectHoursCharge(first.hours_added, job.compute_seconds);
    const second = (
      await t.app.inject({ method: 'POST', url: '/api/user/sync-usage', headers: { cookie } })
    ).json();
    expect(second).toEqual({ success: true, hours_added: 0, jobs_reconciled: 0 });
    expect((await ledgerRows(t, userId)).filter((r) => r.entry_type === 'job_charge')).toHaveLength(1);
  });

  it('grants the welcome tokens at registration, once, recorded in the ledger', async () => {
    const withGrant = await createTestApp({ ...ENV, WELCOME_GRANT_TOKENS: '2' });
    try {
      const { userId, cookie } = await signedInUser(withGrant);
      const rows = await ledgerRows(withGrant, userId);
      expect(rows).toMatchObject([{ entry_type: 'grant', tokens: 2, source: 'welcome', source_id: userId }]);
      // A retried grant (or a second registration hook) adds nothing.
      expect(await withGrant.ctx.compute.ledger.grantWelcome(userId, 2)).toBe(false);
      const summary = await withGrant.ctx.compute.accounts.summary(userId);
      expect(summary).toMatchObject({
        plan: 'token',
        tokens_available: 2,
        tokens_purchased: 2,
        tokens_used: 0,
      });
      // The grant is enough for a newcomer's first real job.
      const first = await submit(withGrant.app, cookie);
      expect(first.statusCode, first.body).toBe(200);
      await waitForJob(withGrant.app, first.json().job_id, cookie);
    } finally {
      await withGrant.close();
    }
  });

  it('asks guests to log in before an analysis (401) but lets them mesh', async () => {
    const res = await submit(t.app, null);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'unauthenticated', status: 'error' });
    expect(res.json().message).toMatch(/^Please log in to run an analysis\./);
    const mesh = await submit(t.app, null, {
      ...tinyJob(),
      config: { analysisType: 'tetra-only', meshingOnly: true },
    });
    expect(mesh.statusCode).toBe(200);
  });

  it('refuses with 402 and a clear message when the balance does not cover the estimate, creating nothing', async () => {
    const { userId, cookie } = await signedInUser(t);
    const before = await t.ctx.jobs.countForUser(userId);
    const broke = await submit(t.app, cookie);
    expect(broke.statusCode).toBe(402);
    expect(broke.json().error).toBe('insufficient_balance');
    expect(broke.json().message).toMatch(
      /^Not enough balance to run this job: it is estimated at 0\.02 tokens/,
    );
    expect(broke.json().message).toMatch(/you have 0\.00 tokens available\. Buy tokens on the Billing page/);
    expect(await t.ctx.jobs.countForUser(userId)).toBe(before);

    // Enough for one estimate (60 s = 0.0167 tokens) but not two: the queued job's estimate is held.
    await creditTokens(t.ctx, userId, 0.02);
    const first = await submit(t.app, cookie, tinyJob(), 2);
    expect(first.statusCode, first.body).toBe(200);
    const second = await submit(t.app, cookie);
    expect(second.statusCode).toBe(402);
    expect(second.json().message).toMatch(/after the estimates of your 1 queued or running job/);
    await waitForJob(t.app, first.json().job_id, cookie);
  });
});

describe('limits', () => {
  it('refuses more concurrent simulations than the plan allows (429), naming the limit', async () => {
    const file = writeTestPlans(mkdtempSync(join(plansDir, 'c-')), {
      token: {
        name: 'Pay As You Go',
        description: '',
        price_monthly: 0,
        billing_cycle: 'pay_as_you_go',
        compute_hours_per_month: 0,
        token_cost: 1,
        stripe_price_id: null,
        features: {
          priority_queue: false,
          support_level: 'x',
          max_file_size_mb: 10,
          concurrent_simulations: 2,
        },
      },
    });
    const t = await createTestApp({ ...ENV, PLANS_FILE: file });
    try {
      const { userId, cookie } = await signedInUser(t);
      await creditTokens(t.ctx, userId, 5);
      await t.ctx.db
        .insertInto('user_plans')
        .values({
          user_id: userId,
          plan_id: 'token',
          status: 'active',
          period_start: null,
          current_period_end: null,
          updated_at: new Date().toISOString(),
        })
        .execute();
      const limit = t.ctx.compute.catalog.get('token')?.features.concurrent_simulations ?? 0;
      const ids: string[] = [];
      for (let i = 0; i < limit; i++) ids.push((await submit(t.app, cookie, tinyJob(), 1)).json().job_id);
      const over = await submit(t.app, cookie);
      expect(over.statusCode).toBe(429);
      expect(over.json()).toMatchObject({ error: 'concurrency_limit' });
      expect(over.json().message).toBe(
        `You already have ${limit} simulations queued or running; the Pay As You Go plan allows ${limit} at once. Wait for one to finish or cancel one, or upgrade your plan on the Billing page.`,
      );
      for (const id of ids) await waitForJob(t.app, id, cookie);
      expect((await submit(t.app, cookie)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('admits no more than the plan allows when submissions race each other', async () => {
    const file = writeTestPlans(mkdtempSync(join(plansDir, 'r-')), {
      token: {
        name: 'Pay As You Go',
        description: '',
        price_monthly: 0,
        billing_cycle: 'pay_as_you_go',
        compute_hours_per_month: 0,
        token_cost: 1,
        stripe_price_id: null,
        features: {
          priority_queue: false,
          support_level: 'x',
          max_file_size_mb: 10,
          concurrent_simulations: 2,
        },
      },
    });
    const t = await createTestApp({ ...ENV, PLANS_FILE: file });
    try {
      const { userId, cookie } = await signedInUser(t);
      await creditTokens(t.ctx, userId, 5);
      // Six submissions at once, each long enough to still be queued or running when the others arrive.
      const results = await Promise.all(Array.from({ length: 6 }, () => submit(t.app, cookie, tinyJob(), 2)));
      const codes = results.map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 200, 429, 429, 429, 429]);
      for (const r of results.filter((x) => x.statusCode === 200))
        await waitForJob(t.app, r.json().job_id, cookie);
    } finally {
      await t.close();
    }
  });

  it('refuses a model larger than the plan allows, and larger than the guest limit (413)', async () => {
    const file = writeTestPlans(mkdtempSync(join(plansDir, 's-')), {
      token: {
        name: 'Tiny',
        description: '',
        price_monthly: 0,
        billing_cycle: 'pay_as_you_go',
        compute_hours_per_month: 0,
        token_cost: 1,
        stripe_price_id: null,
        features: {
          priority_queue: false,
          support_level: 'x',
          max_file_size_mb: 0.0001,
          concurrent_simulations: 2,
        },
      },
    });
    const t = await createTestApp({ ...ENV, PLANS_FILE: file, GUEST_MAX_MODEL_MB: '0.0001' });
    try {
      const { userId, cookie } = await signedInUser(t);
      await creditTokens(t.ctx, userId, 5);
      const res = await submit(t.app, cookie);
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toMatch(
        /^The model is 0\.000\d+ MB; the Tiny plan allows up to 0\.0001 MB per job\. Use a coarser mesh, or choose a plan with a larger limit on the Billing page\.$/,
      );
      const guest = await submit(t.app, null, {
        ...tinyJob(),
        config: { analysisType: 'tetra-only', meshingOnly: true },
      });
      expect(guest.statusCode).toBe(413);
      expect(guest.json().message).toMatch(
        /visitors without an account can submit models up to 0\.0001 MB\. Sign in or create an account/,
      );
      expect(await t.ctx.jobs.countForUser(userId)).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('stops a job at its wall-time limit with a message naming the limit, and charges the time used', async () => {
    const t = await createTestApp({ ...ENV, JOB_TIMEOUT_SECONDS: '1' });
    try {
      const { userId, cookie } = await signedInUser(t);
      await creditTokens(t.ctx, userId, 1);
      const res = await submit(t.app, cookie, tinyJob(), 5);
      const { body } = await waitForJob(t.app, res.json().job_id, cookie);
      expect(body.status).toBe('failed');
      expect(body.error).toBe(
        'The job exceeded its wall-time limit of 1 s. Use a coarser mesh or lower element order, or ask the operator to raise the limit (JOB_TIMEOUT_SECONDS).',
      );
      const job = await info(t, body.job_id, cookie);
      expect(job.compute_seconds).toBeGreaterThanOrEqual(1);
      expectHoursCharge(job.cost_tokens, job.compute_seconds);
    } finally {
      await t.close();
    }
  });

  it('stops a job at its memory limit with a message naming the limit', async () => {
    // Room for the libraries (a standby process has them loaded already), not for the job's 3 GB.
    const t = await createTestApp({ ...ENV, JOB_MEMORY_LIMIT_MB: '1536' });
    try {
      const { userId, cookie } = await signedInUser(t);
      await creditTokens(t.ctx, userId, 1);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/fea/submit',
        payload: tinyJob(),
        headers: { cookie, 'x-test-allocate-mb': '3000' },
      });
      const { body } = await waitForJob(t.app, res.json().job_id, cookie);
      expect(body.status).toBe('failed');
      expect(body.error).toBe(
        'The job exceeded its memory limit of 1536 MB. Use a coarser mesh or lower element order, or ask the operator to raise the limit (JOB_MEMORY_LIMIT_MB).',
      );
    } finally {
      await t.close();
    }
  });

  it('does not charge failures caused by the platform', async () => {
    const t = await createTestApp({ ...ENV, ENGINE_PYTHON: '/nonexistent/python' });
    try {
      const { userId, cookie } = await signedInUser(t);
      await creditTokens(t.ctx, userId, 1);
      const res = await submit(t.app, cookie);
      const { body } = await waitForJob(t.app, res.json().job_id, cookie);
      expect(body.status).toBe('failed');
      expect(body.error).toMatch(/Engine could not start/);
      const job = await info(t, body.job_id, cookie);
      expect(job.cost_tokens).toBe(0);
      expect((await ledgerRows(t, userId)).filter((r) => r.entry_type === 'job_charge')).toHaveLength(0);
    } finally {
      await t.close();
    }
  });
});

describe('cancellation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...ENV, JOB_SLOTS: '1' });
  });
  afterAll(async () => t.close());

  it('cancels a queued job at once (free) and a running one cooperatively (charged for time used)', async () => {
    const { userId, cookie } = await signedInUser(t);
    await creditTokens(t.ctx, userId, 1);
    const running = (await submit(t.app, cookie, tinyJob(), 30)).json().job_id;
    const queued = (await submit(t.app, cookie)).json().job_id;
    await pollUntil(async () => (await t.ctx.jobs.get(running))?.status === 'running');
    await new Promise((r) => setTimeout(r, 1200));

    const c1 = await t.app.inject({ method: 'POST', url: `/api/fea/cancel/${queued}`, headers: { cookie } });
    expect(c1.json()).toEqual({ job_id: queued, status: 'cancelled', message: 'Job cancelled' });
    const q = await info(t, queued, cookie);
    expect(q).toMatchObject({ status: 'cancelled', cost_tokens: 0, compute_seconds: 0 });

    const t0 = Date.now();
    const c2 = await t.app.inject({ method: 'POST', url: `/api/fea/cancel/${running}`, headers: { cookie } });
    expect(c2.json().status).toBe('cancelling');
    const { body } = await waitForJob(t.app, running, cookie);
    expect(body.status).toBe('cancelled');
    expect(body.error).toBe('Job cancelled');
    expect(Date.now() - t0).toBeLessThan(5000); // not the 30 s the job would have taken
    const r = await info(t, running, cookie);
    expect(r.compute_seconds).toBeGreaterThan(1);
    // the ledger rounds to micro-tokens (roundUnits), so allow half a unit either way
    expect(Math.abs(r.cost_tokens - r.compute_seconds / 3600)).toBeLessThanOrEqual(5e-7 + 1e-12);

    const again = await t.app.inject({
      method: 'POST',
      url: `/api/fea/cancel/${running}`,
      headers: { cookie },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      'The job has already finished (cancelled); there is nothing to cancel.',
    );
  });
});
