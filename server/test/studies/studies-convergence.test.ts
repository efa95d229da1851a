import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertStep, uploadFixtures } from '../support/geometry.ts';
import { createStudy, waitForStudy } from '../support/studies.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { registerTestUser } from '../support/users.ts';

/**
 * A mesh-convergence study on the real engine: the coaxial line section (PTFE-free, ε0; a = 0.455 mm,
 * b = 1.49 mm, L = 5 mm) meshed finer and finer from its STEP upload. Closed form C = 2πε₀L / ln(b/a).
 */
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp({ FIELDLINE_THREADS: '1' });
  cookie = (await registerTestUser(t.app)).cookie;
});
afterAll(async () => {
  await t?.close();
});

const EPS0 = 8.8541878128e-12;
const [A, B, L] = [0.455e-3, 1.49e-3, 5e-3];
const CLOSED_FORM = (2 * Math.PI * EPS0 * L) / Math.log(B / A);

// The engine's numbers do not depend on the database: the PostgreSQL pass of the suite skips these.
describe.skipIf(process.env.TEST_DATABASE_URL)('mesh-convergence study', () => {
  it('meshes the coax finer until the capacitance settles, and the closed form lies within the reported error', async () => {
    const upload = await convertStep(t.app, 'coax.step', uploadFixtures().file('coax.step'), { cookie });
    expect(upload.statusCode, upload.body).toBe(200);
    const model = upload.json();
    // The triangles of the inner and outer cylinder faces, whole CAD faces as the viewer selects them.
    const radius = (f: number[]) => {
      const c = [0, 1].map((a) => f.reduce((s, v) => s + (model.vertices[v][a] as number), 0) / 3);
      return Math.hypot(c[0] as number, c[1] as number);
    };
    const patches = model.face_patches as number[];
    const faces = model.faces as number[][];
    const on = (r: number) => {
      const whole = [...new Set(patches)].filter((p) =>
        faces.every((f, i) => patches[i] !== p || Math.abs(radius(f) - r) < 0.05 * r),
      );
      return faces.flatMap((_, i) => (whole.includes(patches[i] as number) ? [i + 1] : []));
    };
    const inner = on(0.455);
    const outer = on(1.49);
    expect(inner.length).toBeGreaterThan(0);
    expect(outer.length).toBeGreaterThan(0);

    const res = await createStudy(t.app, cookie, {
      name: 'coax capacitance convergence',
      mesh_data: { ...model, source_upload_id: model.upload_id },
      config: {
        analysisType: 'em',
        frequency: 0,
        meshCurvatureRefinement: false,
        dirichletFaceConditions: [
          { faces: inner, voltage: 1 },
          { faces: outer, voltage: 0 },
        ],
      },
      outputs: ['capacitance_F'],
      convergence: { output: 'capacitance_F', tolerance: 0.01, startSize: 0.6, ratio: 1.5, maxPoints: 5 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const done = await waitForStudy(t.app, cookie, res.json().study_id, 400_000);
    expect(done.status).toBe('completed');
    const report = done.convergence as {
      converged: boolean;
      value: number;
      extrapolated: number | null;
      error_estimate: number;
      observed_order: number | null;
      sizes: number[];
      message: string;
    };
    for (const p of done.points)
      console.log(
        `coax h=${p.parameters.meshMaxSize?.toFixed(3)} mm, ${p.tetrahedra} tetrahedra: C=${p.outputs.capacitance_F?.toExponential(6)} F, error vs closed form ${((p.outputs.capacitance_F as number) / CLOSED_FORM - 1).toExponential(2)}`,
      );
    const actual = Math.abs(report.value - CLOSED_FORM);
    console.log(
      `coax convergence: ${report.message} value ${report.value.toExponential(6)} F, Richardson ${report.extrapolated?.toExponential(6)} F (order ${report.observed_order?.toFixed(2)}), reported error ${report.error_estimate.toExponential(2)} F, actual error ${actual.toExponential(2)} F (closed form ${CLOSED_FORM.toExponential(6)} F)`,
    );
    expect(done.points.every((p) => p.status === 'completed' && p.mesh_job_id)).toBe(true);
    // Each point is its own mesh, finer than the last.
    const tets = done.points.map((p) => p.tetrahedra as number);
    for (let i = 1; i < tets.length; i++) expect(tets[i]).toBeGreaterThan(tets[i - 1] as number);
    expect(report.converged).toBe(true);
    expect(done.points.length).toBeGreaterThanOrEqual(3);
    expect(report.extrapolated).not.toBeNull();
    expect(actual).toBeLessThanOrEqual(report.error_estimate);
    expect(Math.abs((report.extrapolated as number) / CLOSED_FORM - 1)).toBeLessThan(0.01);
  }, 420_000);
});
