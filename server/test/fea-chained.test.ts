import { createHash } from 'node:crypto';
import { meshHashBytes } from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetentionSweeper } from '../src/retention-sweeper.ts';
import { boxMesh, facesOnPlane } from './support/box-mesh.ts';
import { signedInUser, submit } from './support/compute.ts';
import { createTestApp, type TestApp, waitForJob } from './support/test-app.ts';

// Chained runs (docs/multiphysics.md §7) through the API with the real engine on a real SQLite file: a run
// takes another completed job's fields (fieldsFrom), checked before a job row exists; the worker reads the
// source's stored results itself.

let t: TestApp;
let owner: { userId: string; cookie: string };
const mesh = boxMesh([0.1, 0.02, 0.02], [6, 2, 2]);
const left = facesOnPlane(mesh, 0, 0);
const top = facesOnPlane(mesh, 2, 0.02);
const steady = {
  analysisType: 'thermal',
  meshOrder: 2,
  thermalConductivity: 50,
  temperatureConditions: [{ faces: left, temperature: 373.15, name: 'heater' }],
  convectionConditions: [{ faces: top, coefficient: 25, ambientTemperature: 293.15 }],
};
const transient = {
  ...steady,
  analysisType: 'thermal-time',
  timeStep: 2,
  endTime: 20,
  animationFrames: 10,
  density: 7850,
  heatCapacity: 470,
  temperatureConditions: [{ faces: left, temperature: 323.15, name: 'heater' }],
};
let steadyId: string;
let steadyResults: { fields: { temperature: { data: number[] } } };

const run = async (cookie: string, config: object, sleepSeconds?: number, on = mesh) =>
  submit(t.app, cookie, { mesh_data: on, config }, sleepSeconds);

/** Every job row and every stored object, to show a refused submit created nothing. */
const footprint = async () => ({
  jobs: await t.ctx.jobs.countForUser(null),
  objects: (await t.ctx.jobs.files.store.list('jobs')).length,
});

beforeAll(async () => {
  t = await createTestApp({ ENGINE_TEST_HOOKS: '1' });
  owner = await signedInUser(t);
  const res = await run(owner.cookie, steady);
  expect(res.statusCode, res.body).toBe(200);
  steadyId = res.json().job_id;
  const { body } = await waitForJob(t.app, steadyId, owner.cookie);
  expect(body.status, body.error).toBe('completed');
  steadyResults = body.results;
});
afterAll(async () => t.close());

describe('runs chained from another job (fieldsFrom)', () => {
  it('starts a transient exactly at the temperatures of a steady run (max difference 1e-12 K at t = 0)', async () => {
    const res = await run(owner.cookie, {
      ...transient,
      fieldsFrom: { jobId: steadyId, fields: ['temperature'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { body } = await waitForJob(t.app, res.json().job_id, owner.cookie);
    expect(body.status, body.error).toBe('completed');
    const r = body.results;
    const start: number[] = r.animation.data[0].temperature;
    const source = steadyResults.fields.temperature.data;
    const difference = Math.max(...start.map((v, i) => Math.abs(v - (source[i] as number))));
    console.log(`chained transient: max |T(t=0) − T_steady| = ${difference.toExponential(2)} K`);
    expect(r.animation.frame_values[0]).toBe(0);
    expect(difference).toBeLessThanOrEqual(1e-12);
    expect(r.solver_info.fields_from.temperature).toMatchObject({ job_id: steadyId, analysis: 'thermal' });
    expect(r.analysis_config.fieldsFrom).toEqual({ jobId: steadyId, fields: ['temperature'] });
    // The worker's copy of the source fields is not stored as a result of this job.
    const stored = await t.ctx.jobs.files.store.list(`jobs/${res.json().job_id}/out`);
    expect(stored.some((k) => k.endsWith('fields_from.json'))).toBe(false);
  });

  it('takes a transient frame ("last") as the thermal load of a structural run', async () => {
    const source = await run(owner.cookie, transient);
    const sourceId = source.json().job_id;
    const done = await waitForJob(t.app, sourceId, owner.cookie);
    expect(done.body.status, done.body.error).toBe('completed');
    const res = await run(owner.cookie, {
      analysisType: 'structural',
      meshOrder: 2,
      fixedSupports: [{ faces: left }],
      fieldsFrom: { jobId: sourceId, fields: ['temperature'], frame: 'last' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { body } = await waitForJob(t.app, res.json().job_id, owner.cookie);
    expect(body.status, body.error).toBe('completed');
    const frames = done.body.results.animation.data.length;
    expect(body.results.solver_info.fields_from.temperature).toMatchObject({
      job_id: sourceId,
      frame: frames - 1,
      frame_axis: 'time',
      frame_value: 20,
    });
    const last: number[] = done.body.results.animation.data[frames - 1].temperature;
    expect(body.results.quantities.thermal_load_max_temperature_K).toBeCloseTo(Math.max(...last), 9);
  });

  it("refuses another user's job as not found, exactly as a job that does not exist, and creates nothing", async () => {
    const stranger = await signedInUser(t);
    const before = await footprint();
    const theirs = await run(stranger.cookie, {
      ...transient,
      fieldsFrom: { jobId: steadyId, fields: ['temperature'] },
    });
    const missing = '5b0c2a8e-8f3e-4c1a-9d7e-2f6a1b3c4d5e';
    const nobody = await run(stranger.cookie, {
      ...transient,
      fieldsFrom: { jobId: missing, fields: ['temperature'] },
    });
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json().message).toBe(`fieldsFrom: job ${steadyId} was not found.`);
    expect(nobody.json().message).toBe(`fieldsFrom: job ${missing} was not found.`);
    expect(theirs.json().error).toBe(nobody.json().error);
    expect(await footprint()).toEqual(before);
  });

  it('refuses, before a job row exists, a source not completed, on another mesh, or without the field', async () => {
    const busy = await run(owner.cookie, steady, 30);
    const busyId = busy.json().job_id;
    const before = await footprint();
    const reasons = async (config: object, on = mesh) => {
      const res = await run(owner.cookie, config, undefined, on);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().message as string;
    };
    expect(await reasons({ ...transient, fieldsFrom: { jobId: busyId, fields: ['temperature'] } })).toMatch(
      new RegExp(`job ${busyId} is (queued|running); a run takes fields only from a completed job`),
    );
    const other = boxMesh([0.1, 0.02, 0.02], [5, 2, 2]);
    expect(
      await reasons(
        {
          ...transient,
          temperatureConditions: [{ faces: facesOnPlane(other, 0, 0), temperature: 323.15 }],
          convectionConditions: [],
          fieldsFrom: { jobId: steadyId, fields: ['temperature'] },
        },
        other,
      ),
    ).toContain(`job ${steadyId} ran on another mesh`);
    expect(
      await reasons({
        analysisType: 'modal',
        fieldsFrom: { jobId: steadyId, fields: ['stress'] },
      }),
    ).toContain(`job ${steadyId} (thermal) has no stress field; its fields are temperature, heat_flux`);
    expect(
      await reasons({ ...transient, fieldsFrom: { jobId: steadyId, fields: ['temperature'], frame: 3 } }),
    ).toContain('is a steady run without frames');
    expect(
      await reasons({ analysisType: 'em', fieldsFrom: { jobId: steadyId, fields: ['temperature'] } }),
    ).toContain('A em run takes no fields from another job');
    expect(await footprint()).toEqual(before);
    await t.app.inject({
      method: 'POST',
      url: `/api/fea/cancel/${busyId}`,
      headers: { cookie: owner.cookie },
    });
  });

  it("lists the caller's completed jobs on the same mesh that hold a field, with their peak temperature", async () => {
    const hash = createHash('sha256').update(meshHashBytes(mesh)).digest('hex');
    const list = async (cookie: string | null, field: string, meshHash = hash) =>
      t.app.inject({
        method: 'GET',
        url: `/api/fea/chain-sources?mesh_hash=${meshHash}&field=${field}`,
        headers: cookie ? { cookie } : {},
      });
    const temperature = (await list(owner.cookie, 'temperature')).json().jobs;
    const steadyEntry = temperature.find((j: { job_id: string }) => j.job_id === steadyId);
    expect(steadyEntry).toMatchObject({ analysis_type: 'thermal', frames: 0, max_von_mises_Pa: null });
    expect(steadyEntry.max_temperature_K).toBeCloseTo(373.15, 9);
    expect(temperature.some((j: { frames: number }) => j.frames > 0)).toBe(true); // the transient sources
    expect(temperature.every((j: { analysis_type: string }) => j.analysis_type.startsWith('thermal'))).toBe(
      true,
    );
    const stress = (await list(owner.cookie, 'stress')).json().jobs;
    expect(stress.length).toBeGreaterThan(0);
    expect(stress.every((j: { analysis_type: string }) => j.analysis_type === 'structural')).toBe(true);
    // Another user's list is empty, another mesh lists nothing, a guest is refused, a bad hash is a 400.
    const stranger = await signedInUser(t);
    expect((await list(stranger.cookie, 'temperature')).json().jobs).toEqual([]);
    expect((await list(owner.cookie, 'temperature', 'a'.repeat(64))).json().jobs).toEqual([]);
    expect((await list(null, 'temperature')).statusCode).toBe(401);
    expect((await list(owner.cookie, 'temperature', 'xyz')).statusCode).toBe(400);
  });

  it('keeps a source past its retention time while a run that uses it is queued or running', async () => {
    const sweeper = new RetentionSweeper(
      {
        db: t.ctx.db,
        jobs: t.ctx.jobs,
        uploads: t.ctx.uploads,
        log: t.ctx.log,
        retentionHours: t.ctx.config.compute.retentionHours,
      },
      3600,
    );
    const source = await run(owner.cookie, steady);
    const sourceId = source.json().job_id;
    expect((await waitForJob(t.app, sourceId, owner.cookie)).body.status).toBe('completed');
    const user = await run(
      owner.cookie,
      { ...transient, fieldsFrom: { jobId: sourceId, fields: ['temperature'] } },
      3,
    );
    const userId = user.json().job_id;
    const later = Date.now() + (t.ctx.config.compute.retentionHours + 1) * 3600_000;
    expect((await t.ctx.jobs.get(userId))?.status).toMatch(/queued|running/);
    const swept = await sweeper.sweep(later);
    expect(swept.jobs).not.toContain(sourceId);
    expect(await t.ctx.jobs.files.readResult(sourceId, 'results.json')).not.toBeNull();
    expect((await waitForJob(t.app, userId, owner.cookie)).body.status).toBe('completed');
    expect((await sweeper.sweep(later)).jobs).toContain(sourceId);
  });
});
