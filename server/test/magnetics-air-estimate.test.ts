import { AnalysisConfig, countUnknowns, estimateResources, meshTopology } from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateSeconds } from '../src/billing/job-estimate.ts';
import { boxMesh } from './support/box-mesh.ts';
import { createTestApp, type TestApp, waitForJob } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

/** The pre-run estimate counts the air the engine meshes around a bare magnetic device (airPadding,
 * docs/magnetics.md §4): its unknowns, memory and charge against what the engine really meshed. */

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = (await registerTestUser(t.app)).cookie;
});
afterAll(async () => {
  await t.close();
});

// A bare 20 × 10 × 5 mm magnet, no air: the engine adds its air sphere.
const mesh = { ...boxMesh([0.02, 0.01, 0.005], [8, 4, 2]), units: 'm' };
const magnet = {
  analysisType: 'magnetostatic',
  meshOrder: 1,
  bodyMaterials: [{ region: 0, relativePermeability: 1.05, remanence: [0, 0, 1.3] }],
};

// The estimate of the air's tetrahedra is a fit (contracts/src/analysis/magnetics-air.ts): within this factor.
const AIR_FACTOR = 1.5;

interface AirInfo {
  added_tetrahedra: number;
  added_vertices: number;
}

describe('magnetic run estimate with the added air', () => {
  for (const padding of [undefined, 1]) {
    it(`counts the air the engine meshes round a bare magnet (airPadding ${padding ?? 'default'})`, async () => {
      const config = padding === undefined ? magnet : { ...magnet, airPadding: padding };
      const parsed = AnalysisConfig.parse(config);
      const estimate = estimateResources(mesh, parsed);
      const withoutAir = estimateResources(mesh, AnalysisConfig.parse({ ...config, airPadding: 0 }));
      expect(withoutAir.addedAirTetrahedra).toBeUndefined();
      expect(estimate.addedAirTetrahedra).toBeGreaterThan(0);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/fea/submit',
        payload: { mesh_data: mesh, config },
        headers: { cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { body } = await waitForJob(t.app, res.json().job_id, cookie);
      expect(body.status, body.error).toBe('completed');
      const info = (body.results as { solver_info: { matrix_size: number; air_region: AirInfo } })
        .solver_info;
      const air = info.air_region;
      // The same count the estimate makes, on the mesh the engine actually solved.
      const solved = countUnknowns(
        meshTopology(
          mesh.vertices.length + air.added_vertices,
          mesh.tetrahedra.length + air.added_tetrahedra,
          mesh.faces.length + 1050,
        ),
        'hcurl',
        1,
      );
      const tetRatio = (estimate.addedAirTetrahedra ?? 0) / air.added_tetrahedra;
      const unknownRatio = estimate.unknowns / solved;
      console.log(
        `[estimate] bare magnet, airPadding ${padding ?? 'default (3)'}: air tetrahedra estimated ` +
          `${estimate.addedAirTetrahedra}, meshed ${air.added_tetrahedra} (${tetRatio.toFixed(2)}×); unknowns ` +
          `estimated ${estimate.unknowns} (device alone ${withoutAir.unknowns}), counted on the solved mesh ` +
          `${solved} (${unknownRatio.toFixed(2)}×), engine's free unknowns ${info.matrix_size}`,
      );
      expect(tetRatio).toBeGreaterThan(1 / AIR_FACTOR);
      expect(tetRatio).toBeLessThan(AIR_FACTOR);
      expect(unknownRatio).toBeGreaterThan(1 / AIR_FACTOR);
      expect(unknownRatio).toBeLessThan(AIR_FACTOR);
      // the engine's matrix is the estimate's space or less (gauged: no higher-order gradients)
      expect(estimate.unknowns).toBeGreaterThanOrEqual(info.matrix_size);
      expect(estimate.memoryBytes).toBeGreaterThan(withoutAir.memoryBytes);
      // ...and the charge checked against the balance counts it too
      expect(estimateSeconds(mesh, parsed, 0)).toBeGreaterThan(
        estimateSeconds(mesh, AnalysisConfig.parse({ ...config, airPadding: 0 }), 0),
      );
    });
  }

  it('adds no air where the engine adds none: a model whose outside is inactive, or symmetry planes in eddy currents', () => {
    // the magnet is body 0, in the middle of a cube; body 1 (air the user modelled) is all that touches the outside
    const cube = boxMesh([0.02, 0.02, 0.02], [4, 4, 4]);
    const middle = (x: number) => x > 0.005 && x < 0.015;
    const regions = cube.tetrahedra.map((tet) => {
      const c = [0, 1, 2].map((d) => tet.reduce((s, v) => s + (cube.vertices[v]?.[d] ?? 0), 0) / 4);
      return c.every(middle) ? 0 : 1;
    });
    expect(regions.filter((r) => r === 0).length).toBe(8 * 6);
    const wrapped = { ...cube, tetrahedron_regions: regions };
    expect(estimateResources(wrapped, AnalysisConfig.parse(magnet)).addedAirTetrahedra).toBeUndefined();
    // the same cube all magnet: its outside is the magnet's
    expect(estimateResources(cube, AnalysisConfig.parse(magnet)).addedAirTetrahedra).toBeGreaterThan(0);
    const eddy = AnalysisConfig.parse({
      analysisType: 'eddy-current',
      frequency: 50,
      coils: [{ name: 'c', region: 0, turns: 10, current: 1 }],
      magneticBoundaries: [{ faces: [1], type: 'flux-normal' }],
    });
    expect(estimateResources(mesh, eddy).addedAirTetrahedra).toBeUndefined();
  });

  it('with solid conductors counts air only when a padding is asked for (a bare closed ring), in both analyses', () => {
    // engine solid_conductors.solid_conductor_air: an open conductor's model holds its own air
    for (const analysisType of ['magnetostatic', 'eddy-current'] as const) {
      const ring = { analysisType, frequency: 50, solidConductors: [{ region: 0, current: 1 }] };
      const cube = boxMesh([0.02, 0.02, 0.02], [4, 4, 4]);
      expect(estimateResources(cube, AnalysisConfig.parse(ring)).addedAirTetrahedra).toBeUndefined();
      const padded = AnalysisConfig.parse({ ...ring, airPadding: 2 });
      expect(estimateResources(cube, padded).addedAirTetrahedra).toBeGreaterThan(0);
    }
  });
});
