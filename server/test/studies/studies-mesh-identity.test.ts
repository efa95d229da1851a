import type { MeshData } from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meshHash } from '../../src/fea/mesh-hash.ts';
import { ResultsReader } from '../../src/studies/results-reader.ts';
import { submit, tinyJob } from '../support/compute.ts';
import { convertStep, uploadFixtures } from '../support/geometry.ts';
import { createStudy, voltageStudy, waitForStudy } from '../support/studies.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { registerTestUser } from '../support/users.ts';

/**
 * Which mesh each point ran on (docs/studies.md "Meshes"): every point's job stores its mesh's content hash
 * like any analysis job, and a sweep that re-meshes gives every point's meshing job the study's meshing
 * options. Real engine and mesher, real SQLite.
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

const HASH = /^[0-9a-f]{64}$/;

async function storedInput(jobId: string) {
  const job = await t.ctx.db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
  const bytes = await t.ctx.compute.storage.get(job.input_location);
  if (!bytes) throw new Error(`job ${jobId} has no stored input`);
  return { job, input: JSON.parse(bytes.toString('utf8')) };
}

describe('the study results reader', () => {
  it('hashes a point’s mesh exactly as a plain submit does', async () => {
    const reader = new ResultsReader();
    try {
      const { config } = tinyJob();
      const mesh_data = tinyJob().mesh_data as unknown as MeshData;
      const base = Buffer.from(JSON.stringify({ mesh_data: { ...mesh_data, units: 'mm' } }));
      const out = await reader.baseInput(base, config);
      expect(out.meshHash).toBe(meshHash({ ...mesh_data, units: 'mm' }));
      expect(out.meshHash).not.toBe(meshHash(mesh_data)); // the unit is part of the mesh's identity
    } finally {
      await reader.close();
    }
  });
});

describe.skipIf(process.env.TEST_DATABASE_URL)('study points and their meshes', () => {
  it('a sweep on the given mesh: every point’s job carries the hash a plain submit of that mesh gets', async () => {
    const plain = await submit(t.app, cookie);
    expect(plain.statusCode, plain.body).toBe(200);
    const res = await createStudy(t.app, cookie, voltageStudy(3));
    expect(res.statusCode, res.body).toBe(201);
    const done = await waitForStudy(t.app, cookie, res.json().study_id);
    const plainRow = await t.ctx.db
      .selectFrom('jobs')
      .select('mesh_hash')
      .where('id', '=', plain.json().job_id)
      .executeTakeFirstOrThrow();
    expect(plainRow.mesh_hash).toMatch(HASH);
    expect(done.remeshes).toBe(false);
    expect(done.points.map((p) => p.mesh_hash)).toEqual([
      plainRow.mesh_hash,
      plainRow.mesh_hash,
      plainRow.mesh_hash,
    ]);
    const table = await t.app.inject({
      method: 'GET',
      url: `/api/fea/studies/${done.study_id}/table`,
      headers: { cookie },
    });
    expect(table.json().columns).not.toContain('mesh_hash');
  }, 120_000);

  it('a sweep of the mesh size: each point meshes with the study’s meshing options and records its own mesh', async () => {
    const upload = await convertStep(t.app, 'coax.step', uploadFixtures().file('coax.step'), { cookie });
    expect(upload.statusCode, upload.body).toBe(200);
    const model = upload.json();
    // the triangles of the inner (1 V) and outer (0 V) cylinders: whole CAD faces, found again on each mesh
    const patches = model.face_patches as number[];
    const faces = model.faces as number[][];
    const radius = (f: number[]) =>
      Math.hypot(...[0, 1].map((a) => f.reduce((s, v) => s + (model.vertices[v][a] as number), 0) / 3));
    const on = (r: number) => {
      const whole = [...new Set(patches)].filter((p) =>
        faces.every((f, i) => patches[i] !== p || Math.abs(radius(f) - r) < 0.05 * r),
      );
      return faces.flatMap((_, i) => (whole.includes(patches[i] as number) ? [i + 1] : []));
    };
    const meshing = {
      meshCurvatureRefinement: false,
      meshGrading: 0.5,
      meshElementsPerCircle: 9,
      meshMinSize: 0.05,
      meshRepair: 'none',
    };
    const res = await createStudy(t.app, cookie, {
      name: 'coax over two mesh sizes',
      upload_id: model.upload_id,
      mesh_data: { ...model, tetrahedra: undefined, source_upload_id: model.upload_id },
      config: {
        analysisType: 'em',
        frequency: 0,
        meshOrder: 2,
        dirichletFaceConditions: [
          { faces: on(0.455), voltage: 1 },
          { faces: on(1.49), voltage: 0 },
        ],
        ...meshing,
      },
      parameters: [{ path: 'meshMaxSize', values: [0.9, 0.6] }],
      outputs: ['stored_energy_J'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const done = await waitForStudy(t.app, cookie, res.json().study_id, 300_000);
    expect(done.remeshes).toBe(true);
    for (const p of done.points) {
      expect(p.status, p.error ?? '').toBe('completed');
      const meshJob = await storedInput(p.mesh_job_id as string);
      // the point's meshing job ran with the study's meshing options and its own size
      expect(meshJob.input.config).toMatchObject({ ...meshing, meshMaxSize: p.parameters.meshMaxSize });
      const analysis = await storedInput(p.job_id as string);
      expect(analysis.input.config.meshOrder).toBe(2);
      // the hash the point shows is its job's, and it is the hash of the mesh the job solved on
      expect(p.mesh_hash).toMatch(HASH);
      expect(analysis.job.mesh_hash).toBe(p.mesh_hash);
      expect(meshHash(analysis.input.mesh_data)).toBe(p.mesh_hash);
      console.log(
        `coax point h=${p.parameters.meshMaxSize} mm: ${p.tetrahedra} tetrahedra, mesh ${p.mesh_hash?.slice(0, 12)}…`,
      );
    }
    const [coarse, fine] = done.points;
    expect(coarse?.mesh_hash).not.toBe(fine?.mesh_hash);
    expect(fine?.tetrahedra as number).toBeGreaterThan(coarse?.tetrahedra as number);
    const table = await t.app.inject({
      method: 'GET',
      url: `/api/fea/studies/${done.study_id}/table`,
      headers: { cookie },
    });
    const { columns, rows } = table.json();
    const at = columns.indexOf('mesh_hash');
    expect(at).toBeGreaterThan(0);
    expect(rows.map((r: unknown[]) => r[at])).toEqual(done.points.map((p) => p.mesh_hash));
  }, 300_000);
});
