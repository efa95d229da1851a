import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { MaterialLibrary } from '../src/materials/material-library.ts';
import { boxMesh, facesOnPlane } from './support/box-mesh.ts';
import { createTestApp, type TestApp, waitForJob } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

let t: TestApp;
let cookie: string;
let file: string;
beforeAll(async () => {
  file = join(process.env.TMPDIR ?? '/tmp', `materials-${process.pid}.yaml`);
  writeFileSync(
    file,
    [
      '- id: brass',
      '  label: Brass C360',
      '  relativePermittivity: 1',
      '  relativePermeability: 1',
      '  conductivity: 1.5e7',
      '  lossTangent: 0',
      '  density: 8500',
      '  youngsModulus: 97e9',
      '  poissonRatio: 0.31',
      '  yieldStrength: 310e6',
      '',
    ].join('\n'),
  );
  t = await createTestApp({ MATERIALS_FILE: file });
  cookie = (await registerTestUser(t.app)).cookie;
});
afterAll(async () => {
  await t.close();
});

describe('the material library', () => {
  it('serves the built-in materials and the operator’s file, in OpenAPI', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/materials' });
    expect(res.statusCode).toBe(200);
    const ids = res.json().materials.map((m: { id: string }) => m.id);
    expect(ids).toEqual(
      expect.arrayContaining(['vacuum', 'water', 'copper', 'aluminium', 'steel', 'ptfe', 'brass']),
    );
    const water = res.json().materials.find((m: { id: string }) => m.id === 'water');
    expect(water).toMatchObject({ density: 1000, heatCapacity: 4186 });
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(docs.json().paths['/api/materials']).toBeDefined();
  });

  it('expands a library name into its properties at submit (the entry’s own values win)', async () => {
    const mesh = boxMesh([0.2, 0.02, 0.02], [10, 1, 1]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      headers: { cookie },
      payload: {
        mesh_data: mesh,
        config: {
          analysisType: 'structural',
          meshOrder: 2,
          bodyMaterials: [{ region: 0, material: 'brass', poissonRatio: 0.33 }],
          fixedSupports: [{ faces: facesOnPlane(mesh, 0, 0) }],
          forceLoads: [{ faces: facesOnPlane(mesh, 0, 0.2), force: [0, 0, -100] }],
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { body } = await waitForJob(t.app, res.json().job_id, cookie);
    expect(body.status, body.error).toBe('completed');
    const recorded = (body.results as { analysis_config: { bodyMaterials: Record<string, unknown>[] } })
      .analysis_config;
    expect(recorded.bodyMaterials[0]).toMatchObject({
      material: 'brass',
      youngsModulus: 97e9,
      poissonRatio: 0.33,
      yieldStrength: 310e6,
    });
  });

  it('refuses an unknown name with the closest ones, and a broken file at start-up', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      headers: { cookie },
      payload: {
        mesh_data: boxMesh([1, 1, 1], [1, 1, 1]),
        config: {
          analysisType: 'structural',
          fixedSupports: [{ faces: [1] }],
          gravity: [0, 0, -9.81],
          bodyMaterials: [{ region: 0, material: 'coper' }],
        },
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(
      /^bodyMaterials\[0\]\.material: unknown material 'coper'\. Known materials include: copper/,
    );
    const broken = join(process.env.TMPDIR ?? '/tmp', `materials-broken-${process.pid}.yaml`);
    writeFileSync(broken, '- id: Bad Name\n  label: x\n');
    expect(() =>
      MaterialLibrary.load(loadConfig({ ...process.env, MATERIALS_FILE: broken }).materialsFile),
    ).toThrow(/The materials file .*materials-broken.*: 0\.id/);
  });
});
