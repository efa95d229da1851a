import { afterAll, beforeAll, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from './support/box-mesh.ts';
import { createTestApp, type TestApp, waitForJob } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

it('serves results.bin to the job owner only', async () => {
  const mesh = boxMesh([1, 1, 1], [2, 2, 2]);
  const config = {
    analysisType: 'em',
    dirichletFaceConditions: [
      { faces: facesOnPlane(mesh, 2, 0), voltage: 0 },
      { faces: facesOnPlane(mesh, 2, 1), voltage: 1 },
    ],
  };
  const owner = (await registerTestUser(t.app)).cookie;
  const submit = await t.app.inject({
    method: 'POST',
    url: '/api/fea/submit',
    payload: { mesh_data: mesh, config },
    headers: { cookie: owner },
  });
  const { job_id } = submit.json();
  const url = `/api/fea/results/${job_id}/binary`;

  const early = await t.app.inject({ method: 'GET', url, headers: { cookie: owner } });
  const { body } = await waitForJob(t.app, job_id, owner);
  expect(body.status, body.error).toBe('completed');
  if (early.statusCode !== 200) expect(early.statusCode).toBe(404); // not finished yet: nothing to serve

  const res = await t.app.inject({ method: 'GET', url, headers: { cookie: owner } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/octet-stream');
  const bytes = res.rawPayload;
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('FLRB');
  const headerLength = bytes.readUInt32LE(8);
  const header = JSON.parse(bytes.subarray(12, 12 + headerLength).toString('utf8'));
  expect(header.arrays.vertices.shape).toEqual([27, 3]);
  expect(header.arrays.tetrahedra.shape).toEqual([48, 4]);
  expect(header.version).toBe(2);
  expect(header.fields.electric_field).toMatchObject({ unit: 'V/m', kind: 'vector' });
  expect(header.arrays['fields/electric_field'].shape).toEqual([27, 3]);

  const stranger = (await registerTestUser(t.app)).cookie;
  const other = await t.app.inject({
    method: 'POST',
    url: '/api/fea/submit',
    payload: { mesh_data: mesh, config },
    headers: { cookie: stranger },
  });
  expect((await t.app.inject({ method: 'GET', url, headers: { cookie: stranger } })).statusCode).toBe(404);
  expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
  const unknown = '/api/fea/results/00000000-0000-4000-8000-000000000000/binary';
  expect((await t.app.inject({ method: 'GET', url: unknown, headers: { cookie: owner } })).statusCode).toBe(
    404,
  );
  await waitForJob(t.app, other.json().job_id, stranger);
});
