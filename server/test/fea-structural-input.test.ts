import { STRUCTURAL_NO_LOADS, STRUCTURAL_NO_SUPPORTS } from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from './support/box-mesh.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

// A static structural model without supports or without loads is a 400 naming the field at submit (qa28:
// it used to be queued, charged, and fail in the engine with the same sentence); nothing is stored.
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = (await registerTestUser(t.app)).cookie;
});
afterAll(async () => {
  await t.close();
});

const mesh = boxMesh([0.1, 0.01, 0.01], [4, 1, 1]);
const clamp = [{ faces: facesOnPlane(mesh, 0, 0) }];
const tipLoad = [{ faces: facesOnPlane(mesh, 0, 0.1), force: [0, 0, -1] }];
const submit = (config: Record<string, unknown>, as = cookie) =>
  t.app.inject({
    method: 'POST',
    url: '/api/fea/submit',
    payload: { mesh_data: mesh, config: { analysisType: 'structural', ...config } },
    headers: { cookie: as },
  });
const jobRows = async () => (await t.ctx.db.selectFrom('jobs').select('id').execute()).length;

describe('structural bad input at submit', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['no supports', { forceLoads: tipLoad }, 'fixedSupports', STRUCTURAL_NO_SUPPORTS],
    ['no loads', { fixedSupports: clamp }, 'forceLoads', STRUCTURAL_NO_LOADS],
    [
      'only zero displacements',
      { displacementConditions: [{ ...clamp[0], displacement: [0, null, 0] }] },
      'forceLoads',
      STRUCTURAL_NO_LOADS,
    ],
  ];
  it.each(cases)('refuses %s', async (_label, config, field, text) => {
    const before = await jobRows();
    const res = await submit(config);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(`config.${field}: ${text}`);
    expect(await jobRows()).toBe(before);
  });

  it('accepts a clamped, loaded model; gravity or a prescribed displacement also load it; modal may be free', async () => {
    for (const config of [
      { fixedSupports: clamp, forceLoads: tipLoad },
      { fixedSupports: clamp, gravity: [0, 0, -9.81] },
      { displacementConditions: [{ ...clamp[0], displacement: [0.001, 0, 0] }] },
      { analysisType: 'modal' },
    ]) {
      // A user each: the plan runs two jobs at a time, and only the submit's answer matters here.
      const res = await submit(config, (await registerTestUser(t.app)).cookie);
      expect(res.statusCode, res.body).toBe(200);
    }
  });
});
