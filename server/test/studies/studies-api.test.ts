import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil, submit, tinyJob } from '../support/compute.ts';
import { createStudy, getStudy, voltageStudy, waitForStudy } from '../support/studies.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { registerTestUser } from '../support/users.ts';

/** The studies API: refusals before anything is stored, ownership, the plan's concurrency, cancel, balance. */
let t: TestApp;
let cookie: string;
let userId: string;
beforeAll(async () => {
  t = await createTestApp({ ENGINE_TEST_HOOKS: '1', JOB_SLOTS: '2' });
  const user = await registerTestUser(t.app);
  cookie = user.cookie;
  userId = user.id;
});
afterAll(async () => {
  await t?.close();
});

const counts = async () => ({
  studies: (await t.ctx.db.selectFrom('studies').select('id').execute()).length,
  points: (await t.ctx.db.selectFrom('study_points').select('idx').execute()).length,
  jobs: (await t.ctx.db.selectFrom('jobs').select('id').execute()).length,
});

describe('POST /api/fea/studies refusals', () => {
  it('names the path and the value of a parameter the config does not have or refuses, storing nothing', async () => {
    const before = await counts();
    const cases: [object, number, RegExp][] = [
      [
        { path: 'dirichletFaceConditions[5].voltage', values: [1] },
        400,
        /dirichletFaceConditions\[5\]\.voltage = 1: the path does not name a number/,
      ],
      [
        { path: 'dirichletFaceConditions[1].faces', values: [1] },
        400,
        /dirichletFaceConditions\[1\]\.faces = 1: the path names a list, not a number/,
      ],
      [{ path: 'notASetting', values: [1] }, 400, /notASetting = 1: the config has no such setting/],
      [
        { path: 'bodyMaterials[0].relativePermittivity', values: [1] },
        400,
        /bodyMaterials\[0\]\.relativePermittivity = 1: the path does not name a number/,
      ],
      [{ path: 'meshOrder', values: [1, 4] }, 400, /meshOrder = 4: /],
      [{ path: 'tolerance', values: [1e-6, -1] }, 400, /tolerance = -1: /],
      [
        { path: 'frequency', from: 0, to: 1e9, steps: 3, scale: 'log' },
        400,
        /frequency: a log scale needs from and to above 0/,
      ],
    ];
    for (const [parameter, status, message] of cases) {
      const res = await createStudy(t.app, cookie, { ...voltageStudy(2), parameters: [parameter] });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error).toBe('invalid_parameter');
      expect(res.json().message).toMatch(message);
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses more than 200 points with the count, zip of unequal lengths, and unknown outputs listing the known ones', async () => {
    const grid = await createStudy(t.app, cookie, {
      ...voltageStudy(2),
      parameters: [
        { path: 'dirichletFaceConditions[1].voltage', from: 1, to: 30, steps: 30 },
        { path: 'tolerance', from: 1e-8, to: 1e-6, steps: 7, scale: 'log' },
      ],
    });
    expect(grid.statusCode).toBe(400);
    expect(grid.json().error).toBe('too_many_points');
    expect(grid.json().message).toContain('The study has 210 points; a study may have at most 200');
    const zip = await createStudy(t.app, cookie, {
      ...voltageStudy(2),
      combine: 'zip',
      parameters: [
        { path: 'dirichletFaceConditions[1].voltage', values: [1, 2, 3] },
        { path: 'tolerance', values: [1e-8, 1e-7] },
      ],
    });
    expect(zip.statusCode).toBe(400);
    expect(zip.json().message).toContain('has 3 values but tolerance has 2');
    const output = await createStudy(t.app, cookie, { ...voltageStudy(2), outputs: ['max_von_mises_Pa'] });
    expect(output.statusCode).toBe(400);
    expect(output.json().error).toBe('unknown_output');
    expect(output.json().message).toMatch(
      /^Unknown output 'max_von_mises_Pa': a em analysis produces capacitance_F, stored_energy_J, /,
    );
    expect(output.json().message).toContain('|Sij|@f');
    const frequency = await createStudy(t.app, cookie, { ...voltageStudy(2), outputs: ['frequencies[0]'] });
    expect(frequency.json().error).toBe('unknown_output');
    const guest = await t.app.inject({ method: 'POST', url: '/api/fea/studies', payload: voltageStudy(2) });
    expect(guest.statusCode).toBe(401);
  });
});

describe('a study of ordinary jobs', () => {
  it('runs each point as the owner’s job, never more at once than the plan allows, and a plain submit still gets its 429', async () => {
    // The token plan allows 2 simulations at once; the study's 6 points wait for slots instead of a 429.
    const res = await createStudy(t.app, cookie, voltageStudy(6), 1);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().study_id as string;
    expect(
      res
        .json()
        .points.map(
          (p: { parameters: Record<string, number> }) => p.parameters['dirichletFaceConditions[1].voltage'],
        ),
    ).toEqual([1, 2, 3, 4, 5, 6]);
    let most = 0;
    let sawPlain429 = false;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const active = await t.ctx.jobs.activeAnalysisOf(userId);
      most = Math.max(most, active.count);
      if (active.count === 2 && !sawPlain429) {
        const plain = await submit(t.app, cookie, tinyJob());
        if (plain.statusCode === 429) sawPlain429 = true;
        else if (plain.statusCode === 200)
          await t.app.inject({
            method: 'POST',
            url: `/api/fea/cancel/${plain.json().job_id}`,
            headers: { cookie },
          });
      }
      const study = await getStudy(t.app, cookie, id);
      if (study.status === 'completed') break;
      if (Date.now() > deadline) throw new Error('study did not finish');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(most).toBe(2);
    expect(sawPlain429).toBe(true);
    const study = await getStudy(t.app, cookie, id);
    expect(study.progress).toMatchObject({ total: 6, completed: 6, percent: 100 });
    // Ordinary jobs: the owner's, charged once each, listed in recent activity.
    const jobIds = study.points.map((p) => p.job_id as string);
    const jobs = await t.ctx.db.selectFrom('jobs').selectAll().where('id', 'in', jobIds).execute();
    expect(jobs.every((j) => j.owner_user_id === userId && j.status === 'completed')).toBe(true);
    const ledger = await t.ctx.db
      .selectFrom('usage_ledger')
      .select('source_id')
      .where('source', '=', 'job')
      .where('source_id', 'in', jobIds)
      .execute();
    expect(ledger.map((l) => l.source_id).sort()).toEqual([...jobIds].sort());
    const recent = await t.app.inject({ method: 'GET', url: '/api/user/recent-jobs', headers: { cookie } });
    expect(recent.json().jobs.map((j: { id: string }) => j.id)).toEqual(
      expect.arrayContaining(jobIds.slice(-4)),
    );
    // Energy ½CV²: proportional to V², the capacitance the same at each point.
    for (const p of study.points) {
      const v = p.parameters['dirichletFaceConditions[1].voltage'] as number;
      expect((p.outputs.stored_energy_J as number) / (v * v)).toBeCloseTo(
        study.points[0]?.outputs.stored_energy_J as number,
        20,
      );
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/fea/studies', headers: { cookie } });
    expect(list.json().studies.map((s: { study_id: string }) => s.study_id)).toContain(id);
    const json = await t.app.inject({
      method: 'GET',
      url: `/api/fea/studies/${id}/table`,
      headers: { cookie },
    });
    expect(json.json().columns).toEqual([
      'point',
      'dirichletFaceConditions[1].voltage',
      'status',
      'stored_energy_J',
      'capacitance_F',
      'error',
      'job_id',
    ]);
    expect(json.json().rows).toHaveLength(6);
  }, 180_000);

  it('is 404 to anyone but its owner', async () => {
    const res = await createStudy(t.app, cookie, voltageStudy(1));
    const id = res.json().study_id as string;
    const other = await registerTestUser(t.app);
    for (const [method, url] of [
      ['GET', `/api/fea/studies/${id}`],
      ['GET', `/api/fea/studies/${id}/table?format=csv`],
      ['POST', `/api/fea/studies/${id}/cancel`],
      ['GET', '/api/fea/studies/not-a-uuid'],
    ] as const) {
      const r = await t.app.inject({ method, url, headers: { cookie: other.cookie } });
      expect(r.statusCode, url).toBe(404);
      expect(r.json().message).toBe('Study not found');
    }
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/fea/studies',
      headers: { cookie: other.cookie },
    });
    expect(list.json().studies).toEqual([]);
    await waitForStudy(t.app, cookie, id);
  });

  it('cancel: waiting points cancelled at once, running ones stopped, finished ones kept', async () => {
    const res = await createStudy(t.app, cookie, voltageStudy(5), 3);
    const id = res.json().study_id as string;
    // Two points start (the plan's two slots); the other three wait.
    await pollUntil(
      async () =>
        (await getStudy(t.app, cookie, id)).points.filter((p) => p.status === 'running').length === 2,
      60_000,
    );
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/fea/studies/${id}/cancel`,
      headers: { cookie },
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toMatchObject({ status: 'cancelled', cancelled: 3, stopping: 2, kept: 0 });
    const done = await waitForStudy(t.app, cookie, id, 60_000);
    expect(done.status).toBe('cancelled');
    expect(done.points.map((p) => p.status)).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    // The three that never started have no job; the two stopped were charged for the time they ran.
    expect(done.points.filter((p) => p.job_id === null)).toHaveLength(3);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/fea/studies/${id}/table?format=csv`,
      headers: { cookie },
    });
    expect(csv.body).toContain('Cancelled with the study');
  }, 120_000);

  it('a failed point does not fail the study; the table says which and why', async () => {
    // A body id the model does not have: the engine refuses that point's run; the other point completes.
    const job = tinyJob();
    const res = await createStudy(t.app, cookie, {
      ...voltageStudy(2),
      config: { ...job.config, bodyMaterials: [{ region: 0, relativePermittivity: 2 }] },
      parameters: [{ path: 'bodyMaterials[0].region', values: [3, 0] }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const done = await waitForStudy(t.app, cookie, res.json().study_id);
    expect(done.status).toBe('completed');
    const [one, many] = done.points;
    expect(one?.status).toBe('failed');
    expect(one?.error).toBeTruthy();
    expect(many?.status).toBe('completed');
    expect(many?.outputs.capacitance_F).toBeGreaterThan(0);
    // A completed point whose results lack an output: null, and why.
    const zero = await createStudy(t.app, cookie, {
      ...voltageStudy(1),
      parameters: [{ path: 'dirichletFaceConditions[1].voltage', values: [0] }],
    });
    const z = await waitForStudy(t.app, cookie, zero.json().study_id);
    expect(z.points[0]?.outputs.capacitance_F).toBeNull();
    expect(z.points[0]?.output_errors?.capacitance_F).toContain('the results have no capacitance_F');
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/fea/studies/${res.json().study_id}/table?format=csv`,
      headers: { cookie },
    });
    const rows = csv.body.trim().split('\r\n');
    expect(rows[1]).toContain(',failed,');
    expect(rows[1]).toContain(one?.error?.slice(0, 20));
  });
});

describe('balance', () => {
  it('admits a study as a whole: 402 naming the study and its estimate', async () => {
    const poor = await createTestApp({ WELCOME_GRANT_TOKENS: '0.01' });
    try {
      const u = await registerTestUser(poor.app);
      const res = await createStudy(poor.app, u.cookie, voltageStudy(20));
      expect(res.statusCode).toBe(402);
      expect(res.json().error).toBe('insufficient_balance');
      expect(res.json().message).toMatch(
        /^Not enough balance to run this study of 20 points: it is estimated at [\d.]+ tokens/,
      );
      expect((await poor.ctx.db.selectFrom('studies').select('id').execute()).length).toBe(0);
    } finally {
      await poor.close();
    }
  });
});
