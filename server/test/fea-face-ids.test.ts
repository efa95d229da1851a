import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { MeshData } from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { surfaceFaceCount } from '../src/fea/face-ids.ts';
import { boxMesh, facesOnPlane } from './support/box-mesh.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

// A face id beyond the model's surface faces was queued and charged, then refused by the engine (qa28).
// The server now counts the surface faces the way the engine numbers them and refuses at submit.
const ROOT = resolve(import.meta.dirname, '..', '..');
const box = boxMesh([2, 1, 1], [2, 1, 1]); // 12 tetrahedra, 20 boundary triangles
const asMesh = (faces: number[][]) => ({ ...box, faces }) as unknown as MeshData;
const interior = (() => {
  const t = box.tetrahedra[0] as number[];
  return [t[0], t[1], t[3]] as number[]; // the Kuhn cell's diagonal triangle 0-1-7: inside the box
})();

describe('surface face count', () => {
  const cases: [string, number[][], number][] = [
    ['the boundary triangles given', box.faces, 20],
    ['no faces given', [], 20],
    ['five of them given: the rest follow', box.faces.slice(0, 5), 20],
    ['an interior triangle given too', [...box.faces, interior], 21],
    ['a boundary triangle given twice', [box.faces[0] as number[], box.faces[0] as number[]], 21],
    ['a triangle that is no face of the tetrahedra', [[0, 1, 11]], 20],
  ];

  it.each(cases)('%s', (_label, faces, want) => {
    expect(surfaceFaceCount(asMesh(faces))).toBe(want);
  });

  it("agrees with the engine's numbering (engine mesh/tet_model.py) on each of those meshes", () => {
    const meshes = cases.map(([, faces]) => ({ vertices: box.vertices, tetrahedra: box.tetrahedra, faces }));
    const script =
      'import json,sys\nfrom fieldline_engine.mesh.tet_model import model_from_mesh_data\n' +
      'print(json.dumps([len(model_from_mesh_data(m).faces) for m in json.load(sys.stdin)]))';
    const engine = JSON.parse(
      execFileSync(resolve(ROOT, '.venv', 'bin', 'python'), ['-c', script], {
        input: JSON.stringify(meshes),
        env: { ...process.env, PYTHONPATH: resolve(ROOT, 'engine') },
      }).toString(),
    );
    expect(engine).toEqual(cases.map(([, faces]) => surfaceFaceCount(asMesh(faces))));
  });

  it('leaves a mesh the engine refuses for itself uncounted (a face of three tetrahedra)', () => {
    const t = box.tetrahedra[0] as number[];
    const third = [t[0], t[1], t[3], box.vertices.length - 1] as number[];
    const mesh = { ...box, tetrahedra: [...box.tetrahedra, third] } as unknown as MeshData;
    expect(surfaceFaceCount(mesh)).toBeNull();
  });
});

describe('face ids at submit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  const submit = async (config: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: { mesh_data: box, config },
      headers: { cookie: (await registerTestUser(t.app)).cookie },
    });
  const jobRows = async () => (await t.ctx.db.selectFrom('jobs').select('id').execute()).length;
  const ground = { faces: facesOnPlane(box, 0, 0), voltage: 0 };

  it.each([
    [
      'an EM Dirichlet group',
      { analysisType: 'em', dirichletFaceConditions: [ground, { faces: [3, 21], voltage: 1 }] },
      'config.dirichletFaceConditions.1.faces: face id 21 is out of range',
    ],
    [
      'a structural pressure load (0 is no face either)',
      {
        analysisType: 'structural',
        fixedSupports: [{ faces: facesOnPlane(box, 0, 0) }],
        pressureLoads: [{ faces: [0], pressure: 1 }],
      },
      'config.pressureLoads.0.faces: face id 0 is out of range',
    ],
    [
      'a thermal convection',
      {
        analysisType: 'thermal',
        temperatureConditions: [{ faces: [1], temperature: 300 }],
        convectionConditions: [{ faces: [400], coefficient: 10, ambientTemperature: 293 }],
      },
      'config.convectionConditions.0.faces: face id 400 is out of range',
    ],
  ])(
    'refuses a face id beyond the surface faces in %s, naming the field and the range',
    async (_l, config, text) => {
      const before = await jobRows();
      const res = await submit(config);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ status: 'error', error: 'invalid_request' });
      expect(res.json().message).toBe(`${text}; the model has 20 surface faces (ids 1–20).`);
      expect(await jobRows()).toBe(before);
    },
  );

  it('takes face ids in lists the analysis does not read (wave ports switched off), and the full range', async () => {
    const res = await submit({
      analysisType: 'em',
      dirichletFaceConditions: [ground, { faces: [20], voltage: 1 }],
      useWavePorts: false,
      wavePorts: [{ portID: 1, faces: [999] }],
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
