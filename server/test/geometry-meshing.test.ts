import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkVolumeMesh,
  convertStep,
  onPostgres,
  type UploadFixtures,
  uploadFixtures,
} from './support/geometry.ts';
import { cookieFrom, createTestApp, type TestApp, waitForJob } from './support/test-app.ts';

let t: TestApp;
let fx: UploadFixtures;

beforeAll(async () => {
  fx = uploadFixtures();
  t = await createTestApp({ FIELDLINE_THREADS: '1' });
});
afterAll(async () => {
  await t.close();
});

const MARKER_KEYS = [
  'format_version',
  'meshing_failed',
  'vertices',
  'faces',
  'problem_vertices',
  'problem_faces',
  'diagnostics',
  'format',
];

async function upload(name: string, content: Buffer, cookie?: string) {
  const res = await convertStep(t.app, name, content, { cookie });
  expect(res.statusCode, res.body).toBe(200);
  return { uploadId: res.json().upload_id as string, cookie: cookie ?? cookieFrom(res) };
}

async function submitMeshing(
  cookie: string,
  meshData: Record<string, unknown>,
  config: Record<string, unknown> = {},
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/fea/submit',
    headers: { cookie },
    payload: { mesh_data: meshData, config: { analysisType: 'tetra-only', meshingOnly: true, ...config } },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().job_id as string;
}

describe('meshing jobs on uploads', () => {
  it('meshes the original STEP assembly: valid tetrahedra, bodies kept, quality reported', async () => {
    const { uploadId, cookie } = await upload('assembly.step', fx.file('assembly.step'));
    const jobId = await submitMeshing(cookie, { source_upload_id: uploadId }, { meshMaxSize: 3 });
    const { body } = await waitForJob(t.app, jobId, cookie);
    expect(body.status, body.error).toBe('completed');
    const r = body.results;
    expect(r.region_names).toEqual(['Housing', 'Pin']);
    expect(r.units).toBe('mm');
    expect(r.mesher).toBe('gmsh-hxt');
    expect(r.tetrahedron_regions).toHaveLength(r.tetrahedra.length);
    expect(new Set(r.tetrahedron_regions)).toEqual(new Set([0, 1]));
    expect(r.face_patches).toHaveLength(r.faces.length);
    const check = checkVolumeMesh(r.vertices, r.tetrahedra, r.faces);
    expect(check.minVolume).toBeGreaterThan(0);
    expect(check.surfaceNotOnTets).toBe(0);
    expect(check.openBoundary).toBe(0);
    expect(check.overShared).toBe(0);
    // The housing is exactly 10³ mm³; the pin's cylinder is inscribed (12 segments per circle).
    const pin = 0.5 * 12 * Math.sin((2 * Math.PI) / 12) * 4 * 6;
    expect(check.volume).toBeCloseTo(1000 + pin, -1);
    expect(r.quality.element_count).toBe(r.tetrahedra.length);
    expect(r.quality.min_dihedral_deg).toBeGreaterThan(1);
    expect(r.quality.radius_edge_histogram.counts.reduce((a: number, b: number) => a + b, 0)).toBe(
      r.tetrahedra.length,
    );
    expect(r.mesh_size).toMatchObject({ max_size: 3, automatic: false });
  });

  it.skipIf(onPostgres)('meshes a surface sent as mesh_data (no upload)', async () => {
    const res = await convertStep(t.app, 'cube.obj', fx.file('cube.obj'));
    const surface = res.json();
    const cookie = cookieFrom(res);
    const jobId = await submitMeshing(
      cookie,
      { vertices: surface.vertices, faces: surface.faces, face_patches: surface.face_patches, units: 'mm' },
      { meshMaxSize: 4 },
    );
    const { body } = await waitForJob(t.app, jobId, cookie);
    expect(body.status, body.error).toBe('completed');
    const check = checkVolumeMesh(body.results.vertices, body.results.tetrahedra, body.results.faces);
    expect(check.volume).toBeCloseTo(1000, 6);
    expect(check.openBoundary + check.surfaceNotOnTets).toBe(0);
    // The CAD-face ids given with the surface are the patches of the result.
    expect(new Set(body.results.face_patches)).toEqual(new Set(surface.face_patches));
  });

  it.skipIf(onPostgres)('reports safe repairs by triangle (a flipped triangle is turned back)', async () => {
    const { uploadId, cookie } = await upload('flipped.stl', fx.file('broken_flipped_triangle.stl'));
    // The unit chosen in the environment after the upload (STL has none) applies to the mesh.
    const jobId = await submitMeshing(
      cookie,
      { source_upload_id: uploadId, units: 'cm' },
      { meshMaxSize: 5 },
    );
    const { body } = await waitForJob(t.app, jobId, cookie);
    expect(body.status, body.error).toBe('completed');
    expect(body.results.units).toBe('cm');
    expect(body.results.repairs).toHaveLength(1);
    expect(body.results.repairs[0]).toMatch(/Reversed 1 triangle .*triangles 5\./);
  });
});

describe('meshing failures come with problem markers', () => {
  it.skipIf(onPostgres)(
    'names the offending triangles of each broken STL, with the spec’s trigger words',
    async () => {
      const cookie = cookieFrom(await convertStep(t.app, 'cube.obj', fx.file('cube.obj')));
      const cases = Object.entries(fx.broken);
      const jobs = await Promise.all(
        cases.map(async ([, b]) => {
          const { uploadId } = await upload(b.file, fx.file(b.file), cookie);
          // A flipped triangle is repaired by default; without repairs it must be reported.
          return submitMeshing(cookie, { source_upload_id: uploadId }, { meshRepair: 'none' });
        }),
      );
      const triggers = /self-intersections|non-manifold|surface mesh|intersect|zero volume/;
      for (const [k, [name, b]] of cases.entries()) {
        const jobId = jobs[k] as string;
        const { body } = await waitForJob(t.app, jobId, cookie);
        expect(body.status, name).toBe('failed');
        expect(body.error, name).toMatch(triggers);
        expect(body.problem_markers).toBe(`/api/fea/results/${jobId}/problem-markers`);
        const res = await t.app.inject({ method: 'GET', url: body.problem_markers, headers: { cookie } });
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toMatch(/no-store/);
        const markers = res.json();
        expect(Object.keys(markers)).toEqual(expect.arrayContaining(MARKER_KEYS));
        expect(markers).toMatchObject({ format: 'problem_markers', meshing_failed: true, format_version: 1 });
        expect(markers.problem_faces, name).toEqual(b.faces);
        expect(markers.diagnostics.map((d: { kind: string }) => d.kind)).toContain(b.kind);
        for (const d of markers.diagnostics) expect(typeof d.message).toBe('string');
        expect(markers.faces).toHaveLength(
          name === 'hole' ? 47 : name === 'self_intersection' ? 24 : name === 'non_manifold_edge' ? 24 : 48,
        );
      }
    },
  );

  it('serves /results/tetra_output.json for the caller’s latest failed meshing job only', async () => {
    const mine = await upload('selfx.stl', fx.file('broken_self_intersection.stl'));
    const theirs = await upload('hole.stl', fx.file('broken_hole.stl'));
    const myJob = await submitMeshing(mine.cookie, { source_upload_id: mine.uploadId });
    const theirJob = await submitMeshing(theirs.cookie, { source_upload_id: theirs.uploadId });
    await waitForJob(t.app, myJob, mine.cookie);
    await waitForJob(t.app, theirJob, theirs.cookie);

    const get = (cookie?: string) =>
      t.app.inject({ method: 'GET', url: '/results/tetra_output.json', headers: cookie ? { cookie } : {} });
    const a = await get(mine.cookie);
    const b = await get(theirs.cookie);
    expect(a.statusCode).toBe(200);
    expect(a.headers['cache-control']).toMatch(/no-store/);
    expect(a.json().problem_faces).toEqual(fx.broken.self_intersection?.faces);
    expect(b.json().problem_faces).toEqual(fx.broken.hole?.faces);
    expect(a.json().error).toMatch(/self-intersections/);

    // ?job_id= picks one of the caller's jobs (the environment sends it), never someone else's.
    const byId = await t.app.inject({
      method: 'GET',
      url: `/results/tetra_output.json?job_id=${myJob}`,
      headers: { cookie: mine.cookie },
    });
    expect(byId.json().problem_faces).toEqual(fx.broken.self_intersection?.faces);
    const notMine = await t.app.inject({
      method: 'GET',
      url: `/results/tetra_output.json?job_id=${theirJob}`,
      headers: { cookie: mine.cookie },
    });
    expect(notMine.statusCode).toBe(404);

    const stranger = cookieFrom(await convertStep(t.app, 'cube.obj', fx.file('cube.obj')));
    for (const cookie of [stranger, undefined]) {
      const res = await get(cookie);
      expect(res.statusCode).toBe(404);
      expect(res.headers['cache-control']).toMatch(/no-store/);
      const perJob = await t.app.inject({
        method: 'GET',
        url: `/api/fea/results/${myJob}/problem-markers`,
        headers: cookie ? { cookie } : {},
      });
      expect(perJob.statusCode).toBe(404);
    }
  });
});
