import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from '../support/box-mesh.ts';
import { createStudy, waitForStudy } from '../support/studies.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { registerTestUser } from '../support/users.ts';

/** Design studies run on the real engine: results across points checked against the physics' scaling laws. */
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = (await registerTestUser(t.app)).cookie;
});
afterAll(async () => {
  await t?.close();
});

// The engine's numbers do not depend on the database: the PostgreSQL pass of the suite skips these.
describe.skipIf(process.env.TEST_DATABASE_URL)('design studies on the real engine', () => {
  it('a cantilever over 5 loads × 3 Young’s moduli (grid): tip deflection proportional to F/E', async () => {
    const mesh = boxMesh([0.2, 0.02, 0.02], [10, 1, 1]);
    const res = await createStudy(t.app, cookie, {
      name: 'cantilever load × stiffness',
      mesh_data: mesh,
      config: {
        analysisType: 'structural',
        meshOrder: 2,
        bodyMaterials: [{ region: 0, youngsModulus: 200e9, poissonRatio: 0.3 }],
        fixedSupports: [{ faces: facesOnPlane(mesh, 0, 0), name: 'wall' }],
        forceLoads: [{ faces: facesOnPlane(mesh, 0, 0.2), force: [0, 0, -100] }],
      },
      parameters: [
        { path: 'forceLoads[0].force[2]', from: -100, to: -500, steps: 5 },
        { path: 'bodyMaterials[0].youngsModulus', values: [70e9, 110e9, 200e9] },
      ],
      combine: 'grid',
      outputs: ['max_displacement_m', 'max_von_mises_Pa'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().points).toHaveLength(15);
    const study = await waitForStudy(t.app, cookie, res.json().study_id);
    expect(study.status).toBe('completed');
    expect(study.points.every((p) => p.status === 'completed')).toBe(true);
    // u = k·|F|/E for one geometry: the same k at every point.
    const k = study.points.map(
      (p) =>
        ((p.outputs.max_displacement_m as number) *
          (p.parameters['bodyMaterials[0].youngsModulus'] as number)) /
        Math.abs(p.parameters['forceLoads[0].force[2]'] as number),
    );
    const mean = k.reduce((a, b) => a + b, 0) / k.length;
    const spread = Math.max(...k.map((x) => Math.abs(x / mean - 1)));
    console.log(
      `cantilever study: u·E/|F| = ${mean.toExponential(6)} 1/m over 15 points, largest relative deviation ${spread.toExponential(2)}`,
    );
    expect(spread).toBeLessThan(1e-9);
    // Stress does not depend on E, and is linear in F.
    const s = study.points.map(
      (p) =>
        (p.outputs.max_von_mises_Pa as number) / Math.abs(p.parameters['forceLoads[0].force[2]'] as number),
    );
    expect(Math.max(...s) / Math.min(...s) - 1).toBeLessThan(1e-9);

    const table = await t.app.inject({
      method: 'GET',
      url: `/api/fea/studies/${res.json().study_id}/table?format=csv`,
      headers: { cookie },
    });
    expect(table.headers['content-type']).toContain('text/csv');
    const lines = table.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'point,forceLoads[0].force[2],bodyMaterials[0].youngsModulus,status,max_displacement_m,max_von_mises_Pa,error,job_id',
    );
    expect(lines).toHaveLength(16);
  }, 300_000);

  it('a capacitor over 5 permittivities: capacitance linear in ε (ε·A/d for the filled box)', async () => {
    const mesh = boxMesh([1, 1, 1], [1, 1, 2]);
    const res = await createStudy(t.app, cookie, {
      name: 'capacitor permittivity',
      mesh_data: mesh,
      config: {
        analysisType: 'em',
        frequency: 0,
        bodyMaterials: [{ region: 0, relativePermittivity: 1 }],
        dirichletFaceConditions: [
          { faces: facesOnPlane(mesh, 2, 0), voltage: 0 },
          { faces: facesOnPlane(mesh, 2, 1), voltage: 1 },
        ],
      },
      parameters: [{ path: 'bodyMaterials[0].relativePermittivity', values: [1, 2.2, 4.4, 6.15, 10.2] }],
      combine: 'grid',
      outputs: ['capacitance_F'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const study = await waitForStudy(t.app, cookie, res.json().study_id);
    const EPS0 = 8.8541878128e-12;
    for (const p of study.points) {
      const er = p.parameters['bodyMaterials[0].relativePermittivity'] as number;
      const c = p.outputs.capacitance_F as number;
      const closed = EPS0 * er; // A = 1 m², d = 1 m, uniform field
      console.log(
        `capacitor εr=${er}: C=${c.toExponential(8)} F, closed form ${closed.toExponential(8)} F, relative error ${Math.abs(c / closed - 1).toExponential(2)}`,
      );
      expect(Math.abs(c / closed - 1)).toBeLessThan(1e-3);
    }
    const perEps = study.points.map(
      (p) =>
        (p.outputs.capacitance_F as number) /
        (p.parameters['bodyMaterials[0].relativePermittivity'] as number),
    );
    expect(Math.max(...perEps) / Math.min(...perEps) - 1).toBeLessThan(1e-9);
  }, 300_000);
});
