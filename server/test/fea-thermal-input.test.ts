import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from './support/box-mesh.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

// Issue 17: a thermal config that cannot run is a 400 naming the field at submit, and nothing is stored.
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
const end = facesOnPlane(mesh, 0, 0);
const other = facesOnPlane(mesh, 0, 0.1);
const submit = (config: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/fea/submit',
    payload: { mesh_data: mesh, config: { analysisType: 'thermal', ...config } },
    headers: { cookie },
  });
const jobRows = async () => (await t.ctx.db.selectFrom('jobs').select('id').execute()).length;

describe('thermal bad input at submit', () => {
  const held = { temperatureConditions: [{ faces: end, temperature: 300 }] };
  const cases: [string, Record<string, unknown>, string, string][] = [
    [
      '0 K',
      { temperatureConditions: [{ faces: end, temperature: 0 }] },
      'temperatureConditions',
      'above 0 K',
    ],
    ['a negative conductivity', { ...held, thermalConductivity: -1 }, 'thermalConductivity', ''],
    [
      'a zero convection coefficient',
      { ...held, convectionConditions: [{ faces: other, coefficient: 0, ambientTemperature: 293 }] },
      'convectionConditions',
      '',
    ],
    [
      'an emissivity above 1',
      { ...held, radiationConditions: [{ faces: other, emissivity: 1.5, ambientTemperature: 293 }] },
      'radiationConditions',
      '',
    ],
    [
      'a time step longer than the end time',
      { ...held, transient: true, timeStep: 10, endTime: 1 },
      'timeStep',
      'timeStep (10 s) is larger than endTime (1 s).',
    ],
    [
      'two conditions on one face',
      { ...held, convectionConditions: [{ faces: [end[0]], coefficient: 10, ambientTemperature: 293 }] },
      'convectionConditions',
      `Face ${end[0]} is used by both Temperature condition 1 and Convection 1.`,
    ],
    [
      'a steady model no condition holds',
      { neumannConditions: [{ faces: end, flux: 100 }] },
      'temperatureConditions',
      'undetermined: heat can leave nowhere',
    ],
  ];
  it.each(cases)('refuses %s', async (_label, config, field, text) => {
    const before = await jobRows();
    const res = await submit(config);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain(field);
    expect(res.body).toContain(text);
    expect(await jobRows()).toBe(before);
  });

  it('accepts the same model held by a temperature, and a transient with no condition at all', async () => {
    expect((await submit(held)).statusCode).toBe(200);
    const transient = await submit({ transient: true, timeStep: 1, endTime: 10 });
    expect(transient.statusCode, transient.body).toBe(200);
  });
});
