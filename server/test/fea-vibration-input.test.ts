import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from './support/box-mesh.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

// A harmonic config that cannot run is a 400 naming the field at submit (it used to be queued and fail in
// the engine), and nothing is stored.
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
const harmonic = {
  analysisType: 'harmonic',
  fixedSupports: [{ faces: facesOnPlane(mesh, 0, 0) }],
  forceLoads: [{ faces: facesOnPlane(mesh, 0, 0.1), force: [0, 0, -1] }],
};
const submit = (config: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/fea/submit',
    payload: { mesh_data: mesh, config: { ...harmonic, ...config } },
    headers: { cookie },
  });
const jobRows = async () => (await t.ctx.db.selectFrom('jobs').select('id').execute()).length;

describe('harmonic bad input at submit', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['no band top', {}, 'harmonicFreqMax', "needs harmonicFreqMax (Hz), the band's top"],
    [
      'a band upside down',
      { harmonicFreqMin: 500, harmonicFreqMax: 100 },
      'harmonicFreqMax',
      'harmonicFreqMax (100 Hz) must be above harmonicFreqMin (500 Hz).',
    ],
    [
      'a modal search bound',
      { harmonicFreqMax: 500, modalMinFrequency: 100 },
      'modalMinFrequency',
      'a harmonic run must sum the lowest modes',
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

  it('accepts a band, and a modal run with a search bound', async () => {
    expect((await submit({ harmonicFreqMax: 500 })).statusCode).toBe(200);
    const modal = await submit({ analysisType: 'modal', modalMinFrequency: 100, forceLoads: [] });
    expect(modal.statusCode, modal.body).toBe(200);
  });
});
