import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from './support/box-mesh.ts';
import { createTestApp, type TestApp, waitForJob } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  // Analyses need an account (docs/conventions.md); the welcome grant pays for these small jobs.
  cookie = (await registerTestUser(t.app)).cookie;
});
afterAll(async () => {
  await t.close();
});

const EPS0 = 8.854e-12;

function plateJob(volts: number, gap: number) {
  const mesh = boxMesh([0.01, 0.01, gap], [3, 3, 2]);
  const config = {
    analysisType: 'em',
    frequency: 0,
    defaultPermittivity: EPS0,
    dirichletFaceConditions: [
      { faces: facesOnPlane(mesh, 2, 0), voltage: 0 },
      { faces: facesOnPlane(mesh, 2, gap), voltage: volts },
    ],
  };
  return { mesh_data: mesh, config };
}

describe('submit → queue → engine → status', () => {
  it('runs an electrostatic job and returns E = V/d in a parallel-plate gap', async () => {
    const volts = 5;
    const gap = 0.002;
    const submit = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: plateJob(volts, gap),
      headers: { cookie },
    });
    expect(submit.statusCode).toBe(200);
    const { job_id, status } = submit.json();
    expect(status).toBe('queued');

    const { body, seen } = await waitForJob(t.app, job_id, cookie);
    expect(body.status, body.error).toBe('completed');
    expect(seen).toContain('completed');
    expect(body.progress).toBe(100);
    const results = body.results;
    expect(results.solver_info.elements).toBe(3 * 3 * 2 * 6);
    expect(results.solver_info.frequency).toBe(0);
    expect(results.computation_time).toBeGreaterThan(0);
    expect(results.tetrahedra).toHaveLength(108);
    const e: number[] = results.field_magnitudes.e_magnitudes.data;
    expect(e).toHaveLength(results.vertices.length);
    const exact = volts / gap;
    const worst = Math.max(...e.map((v) => Math.abs(v - exact) / exact));
    expect(worst).toBeLessThan(0.01);

    const download = await t.app.inject({
      method: 'GET',
      url: `/api/fea/download/${job_id}`,
      headers: { cookie },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('attachment');
    expect(JSON.parse(download.body).solver_info.elements).toBe(108);

    const info = await t.app.inject({
      method: 'GET',
      url: `/api/fea/results/${job_id}/info`,
      headers: { cookie },
    });
    expect(info.json().files.map((f: { name: string }) => f.name)).toContain('results.json');
  });

  it('hides a job from every other visitor (404, not 403)', async () => {
    const submit = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: plateJob(1, 0.001),
      headers: { cookie },
    });
    const { job_id } = submit.json();
    const owner = cookie;
    const stranger = (await registerTestUser(t.app)).cookie;
    for (const url of [
      `/api/fea/status/${job_id}`,
      `/api/fea/download/${job_id}`,
      `/api/fea/results/${job_id}/info`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: stranger } });
      expect(res.statusCode, url).toBe(404);
      const anonymous = await t.app.inject({ method: 'GET', url });
      expect(anonymous.statusCode, url).toBe(404);
    }
    await waitForJob(t.app, job_id, owner);
  });

  it('reports an engine failure as a failed job with the engine message', async () => {
    const mesh = boxMesh([1, 1, 1], [1, 1, 1]);
    const submit = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: { mesh_data: mesh, config: { analysisType: 'em' } },
      headers: { cookie },
    });
    const { body } = await waitForJob(t.app, submit.json().job_id, cookie);
    expect(body.status).toBe('failed');
    expect(body.error).toMatch(/floating/);
  });
});

describe('submit validation', () => {
  const cases: [string, unknown, string][] = [
    ['no vertices', { vertices: [], faces: [] }, 'Invalid mesh data: No vertices found.'],
    [
      'no elements',
      { vertices: [[0, 0, 0]], faces: [] },
      'Invalid mesh data: No elements (tetrahedra or faces) found.',
    ],
    [
      'surface only',
      {
        vertices: [
          [0, 0, 0],
          [1, 0, 0],
          [0, 1, 0],
        ],
        faces: [[0, 1, 2]],
      },
      'Invalid mesh data: the analysis needs a volume mesh. Generate Volume Mesh first.',
    ],
  ];
  for (const [name, mesh, message] of cases) {
    it(`refuses ${name} with the spec's message and creates no job`, async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/fea/submit',
        payload: { mesh_data: mesh, config: {} },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 'error', error: 'invalid_mesh', message });
    });
  }

  it('refuses a config field outside its bounds', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: { mesh_data: boxMesh([1, 1, 1], [1, 1, 1]), config: { pmlThickness: 2 } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 'error', error: 'invalid_request' });
    expect(res.json().message).toMatch(/^config\.pmlThickness/);
  });

  it('refuses a frequency outside the spec range 0 to 20 GHz (spec 001 §5)', async () => {
    for (const frequency of [20.5e9, -1]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/fea/submit',
        payload: { mesh_data: boxMesh([1, 1, 1], [1, 1, 1]), config: { frequency } },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^config\.frequency/);
    }
  });

  it('leaves no job row behind for refused submissions', async () => {
    const before = await t.ctx.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: { mesh_data: { vertices: [] }, config: {} },
    });
    const after = await t.ctx.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    expect(Number(after?.n)).toBe(Number(before?.n));
  });
});
