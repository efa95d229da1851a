import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from './support/box-mesh.ts';
import { createTestApp, type TestApp, waitForJob } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = (await registerTestUser(t.app)).cookie;
});
afterAll(async () => {
  await t.close();
});

const submit = (config: Record<string, unknown>, mesh = boxMesh([0.2, 0.02, 0.02], [10, 1, 1])) =>
  t.app.inject({
    method: 'POST',
    url: '/api/fea/submit',
    payload: { mesh_data: mesh, config },
    headers: { cookie },
  });

describe('structural analysis through the API', () => {
  it('solves a cantilever: named fields, reactions that balance the load, the run settings recorded', async () => {
    const mesh = boxMesh([0.2, 0.02, 0.02], [10, 1, 1]);
    const res = await submit(
      {
        analysisType: 'structural',
        meshOrder: 2,
        bodyMaterials: [{ region: 0, material: 'aluminium', youngsModulus: 68.9e9, poissonRatio: 0.33 }],
        fixedSupports: [{ faces: facesOnPlane(mesh, 0, 0), name: 'wall' }],
        forceLoads: [{ faces: facesOnPlane(mesh, 0, 0.2), force: [0, 0, -500] }],
      },
      mesh,
    );
    expect(res.statusCode, res.body).toBe(200);
    const { body } = await waitForJob(t.app, res.json().job_id, cookie);
    expect(body.status, body.error).toBe('completed');
    const r = body.results as {
      fields: Record<string, unknown>;
      quantities: { reactions: { support: string; reaction_N: number[] }[]; reaction_balance_error: number };
      analysis_config: { forceLoads: { force: number[] }[] };
    };
    expect(Object.keys(r.fields)).toEqual([
      'von_mises',
      'displacement',
      'principal_stress_max',
      'principal_stress_min',
      'stress',
    ]);
    expect(r.fields.displacement).toMatchObject({ unit: 'm', kind: 'vector', role: 'deformation' });
    expect(r.quantities.reactions[0]?.support).toBe('wall');
    expect(r.quantities.reactions[0]?.reaction_N[2]).toBeCloseTo(500, 6);
    expect(r.quantities.reaction_balance_error).toBeLessThan(1e-6);
    expect(r.analysis_config.forceLoads[0]?.force).toEqual([0, 0, -500]);
  });

  it('refuses an under-supported model with the free motions named, and a missing family with a 400', async () => {
    const mesh = boxMesh([0.2, 0.02, 0.02], [10, 1, 1]);
    const res = await submit(
      {
        analysisType: 'structural',
        displacementConditions: [{ faces: facesOnPlane(mesh, 2, 0), displacement: [null, null, 0] }],
        forceLoads: [{ faces: facesOnPlane(mesh, 0, 0.2), force: [0, 0, -1] }],
      },
      mesh,
    );
    const { body } = await waitForJob(t.app, res.json().job_id, cookie);
    expect(body.status).toBe('failed');
    expect(body.error).toContain('can still translate along x and y and rotate about z');

    const unknown = await submit({ analysisType: 'acoustic' });
    expect(unknown.statusCode).toBe(400);
    const bad = await submit({ analysisType: 'structural', poissonRatio: 0.5 });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('poissonRatio');
  });

  it('refuses a support given both faces and edges, or an edge that is not a vertex pair, naming the field', async () => {
    const both = await submit({
      analysisType: 'structural',
      displacementConditions: [{ faces: [1], edges: [[0, 1]], displacement: [null, null, 0] }],
    });
    expect(both.statusCode).toBe(400);
    expect(both.body).toContain('displacementConditions');
    expect(both.body).toContain('give one of faces, edges or points, not faces and edges');
    const shape = await submit({ analysisType: 'structural', fixedSupports: [{ edges: [[0, 1, 2]] }] });
    expect(shape.statusCode).toBe(400);
    expect(shape.body).toContain('fixedSupports');
    expect(shape.body).toContain('edges');
  });
});
