import { AnalysisConfig, countUnknowns, estimateResources, meshTopology } from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from './support/box-mesh.ts';
import { createTestApp, type TestApp, waitForJob } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

/** The pre-run estimate (contracts/src/resources.ts): unknowns exactly as the engine lays them out, and a
 * run over the job memory limit refused before anything is stored or charged. */

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  // 1.5 GB a job: the engine's libraries take about 1 GB of address space, so a modest model fits and an
  // order-3 model of 127 k unknowns on the direct solver does not.
  t = await createTestApp({ JOB_MEMORY_LIMIT_MB: '1536' });
  cookie = (await registerTestUser(t.app)).cookie;
});
afterAll(async () => {
  await t.close();
});

const mesh = boxMesh([1, 0.2, 0.1], [10, 2, 1]);
const walls = [
  ...facesOnPlane(mesh, 1, 0),
  ...facesOnPlane(mesh, 1, 0.2),
  ...facesOnPlane(mesh, 2, 0),
  ...facesOnPlane(mesh, 2, 0.1),
];
const CASES: Record<string, Record<string, unknown>> = {
  'structural, order 2 (three H1 components)': {
    analysisType: 'structural',
    meshOrder: 2,
    fixedSupports: [{ faces: facesOnPlane(mesh, 0, 0) }],
    forceLoads: [{ faces: facesOnPlane(mesh, 0, 1), force: [0, 0, -1] }],
  },
  'thermal, order 3 (H1)': {
    analysisType: 'thermal',
    meshOrder: 3,
    temperatureConditions: [
      { faces: facesOnPlane(mesh, 0, 0), temperature: 300 },
      { faces: facesOnPlane(mesh, 0, 1), temperature: 400 },
    ],
  },
  'full-wave EM, order 2 (Nédélec)': {
    analysisType: 'em',
    frequency: 1e9,
    meshOrder: 2,
    useWavePorts: true,
    wavePorts: [
      { portID: 1, faces: facesOnPlane(mesh, 0, 0), mode: 'TE10' },
      { portID: 2, faces: facesOnPlane(mesh, 0, 1), mode: 'TE10' },
    ],
    dirichletFaceConditions: [{ faces: walls, voltage: 0 }],
  },
};

const submit = (config: Record<string, unknown>, mesh_data: object = mesh) =>
  t.app.inject({
    method: 'POST',
    url: '/api/fea/submit',
    payload: { mesh_data, config },
    headers: { cookie },
  });

describe('resource estimate', () => {
  for (const [name, config] of Object.entries(CASES)) {
    it(`counts the unknowns the engine solves for: ${name}`, async () => {
      const estimate = estimateResources(mesh, AnalysisConfig.parse(config));
      const res = await submit(config);
      expect(res.statusCode, res.body).toBe(200);
      const { body } = await waitForJob(t.app, res.json().job_id, cookie);
      expect(body.status, body.error).toBe('completed');
      const info = (body.results as { solver_info: { matrix_size: number } }).solver_info;
      console.log(`${name}: estimate ${estimate.unknowns} unknowns, engine ${info.matrix_size}`);
      expect(estimate.unknowns).toBe(info.matrix_size);
    });
  }

  it("estimates an induction-heated thermal run by its eddy-current solve, the larger: the engine's Nédélec unknowns", async () => {
    const config = {
      analysisType: 'thermal',
      meshOrder: 2,
      inductionHeating: true,
      frequency: 1000,
      solidConductors: [
        {
          region: 0,
          current: 10,
          terminals: { in: facesOnPlane(mesh, 0, 0), out: facesOnPlane(mesh, 0, 1) },
        },
      ],
      bodyMaterials: [{ region: 0, conductivity: 5.8e7, thermalConductivity: 400 }],
      temperatureConditions: [{ faces: facesOnPlane(mesh, 0, 0), temperature: 300 }],
    };
    const estimate = estimateResources(mesh, AnalysisConfig.parse(config));
    const topology = meshTopology(mesh.vertices.length, mesh.tetrahedra?.length ?? 0, mesh.faces.length);
    const alone = estimateResources(mesh, AnalysisConfig.parse({ ...config, inductionHeating: false }));
    expect([estimate.space, estimate.complex]).toEqual(['hcurl', true]);
    expect(estimate.memoryBytes).toBeGreaterThan(alone.memoryBytes);
    const res = await submit(config);
    expect(res.statusCode, res.body).toBe(200);
    const { body } = await waitForJob(t.app, res.json().job_id, cookie);
    expect(body.status, body.error).toBe('completed');
    const info = (
      body.results as { solver_info: { matrix_size: number; induction: { matrix_size: number } } }
    ).solver_info;
    console.log(
      `thermal with induction heating: estimate ${estimate.unknowns} unknowns (temperature alone ${alone.unknowns}), engine's eddy-current solve ${info.induction.matrix_size}, thermal ${info.matrix_size}`,
    );
    // the estimate counts the whole complex Nédélec space; the engine reports the free unknowns it factors
    // (the outer faces' n×A = 0 removed: most of this small box), so the estimate is the safe bound
    expect(estimate.unknowns).toBe(countUnknowns(topology, 'hcurl', 2));
    expect(estimate.unknowns).toBeGreaterThanOrEqual(info.induction.matrix_size);
    expect(alone.unknowns).toBe(info.matrix_size);
  });

  it('estimates the full-wave iterative path the engine takes (GMRES + BDDC) when forced or when the factor would not fit', async () => {
    const config = { ...CASES['full-wave EM, order 2 (Nédélec)'], linearSolver: 'gmres-bddc' };
    const estimate = estimateResources(mesh, AnalysisConfig.parse(config));
    expect(estimate).toMatchObject({ space: 'hcurl', complex: true, solver: 'iterative' });
    const res = await submit(config);
    expect(res.statusCode, res.body).toBe(200);
    const { body } = await waitForJob(t.app, res.json().job_id, cookie);
    expect(body.status, body.error).toBe('completed');
    const info = (body.results as { solver_info: { matrix_size: number; linear_solver: string } })
      .solver_info;
    expect(info.linear_solver).toMatch(/^GMRES/);
    expect(estimate.unknowns).toBe(info.matrix_size);
    // auto: 80 k unknowns factorize unless the job's limit is below the factor's estimate (≈ 2.3 GB)
    const big = boxMesh([1, 0.2, 0.1], [40, 8, 4]);
    const auto = AnalysisConfig.parse({ ...CASES['full-wave EM, order 2 (Nédélec)'] });
    const unlimited = estimateResources(big, auto);
    const limited = estimateResources(big, auto, 1536 * 1024 * 1024);
    console.log(
      `full-wave auto, ${unlimited.unknowns} unknowns: ${unlimited.solver} ${(unlimited.memoryBytes / 1e9).toFixed(2)} GB; ` +
        `under 1.5 GB: ${limited.solver} ${(limited.memoryBytes / 1e9).toFixed(2)} GB`,
    );
    expect(unlimited.unknowns).toBeLessThan(100_000);
    expect(unlimited.solver).toBe('direct');
    expect(limited.solver).toBe('iterative');
    expect(limited.memoryBytes).toBeLessThan(1536 * 1024 * 1024);
  });

  it('routes an em-eigen job as the engine does: direct up to 100 k unknowns while the factor fits, iterative above, lossy too', () => {
    const sized = (vertices: number, cells: number, boundaryFaces: number) => ({
      vertices: new Array(vertices),
      faces: new Array(boundaryFaces),
      tetrahedra: new Array(cells),
    });
    const small = sized(2_000, 9_000, 2_000); // ≈ 74 k Nédélec order-2 unknowns
    const large = sized(20_000, 100_000, 12_000); // ≈ 0.8 M
    const eigen = AnalysisConfig.parse({ analysisType: 'em-eigen', meshOrder: 2 });
    const limit = 8192 * 1024 * 1024;
    const lossy = AnalysisConfig.parse({
      ...eigen,
      bodyMaterials: [{ region: 0, relativePermittivity: 2.2, lossTangent: 1e-3 }],
    });
    const a = estimateResources(small, eigen, limit);
    const b = estimateResources(large, eigen, limit);
    const forced = estimateResources(
      small,
      AnalysisConfig.parse({ ...eigen, linearSolver: 'gmres-bddc' }),
      limit,
    );
    const direct = estimateResources(
      large,
      AnalysisConfig.parse({ ...eigen, linearSolver: 'direct' }),
      limit,
    );
    const complex = estimateResources(large, lossy, limit);
    const smallLossy = estimateResources(small, lossy, limit);
    const smallLossyTight = estimateResources(small, lossy, 3000 * 1024 * 1024);
    const largeLossyDirect = estimateResources(
      large,
      AnalysisConfig.parse({ ...lossy, linearSolver: 'direct' }),
      limit,
    );
    for (const [name, e] of Object.entries({
      a,
      b,
      forced,
      direct,
      complex,
      smallLossy,
      smallLossyTight,
      largeLossyDirect,
    })) {
      console.log(
        `em-eigen ${name}: ${e.unknowns} unknowns, ${e.solver}, ${(e.memoryBytes / 1e9).toFixed(2)} GB`,
      );
    }
    expect(a.unknowns).toBeLessThan(100_000);
    expect(a).toMatchObject({ solver: 'direct', complex: false });
    expect(b.unknowns).toBeGreaterThan(500_000);
    expect(b).toMatchObject({ solver: 'iterative' });
    expect(b.memoryBytes).toBeLessThan(limit);
    expect(forced.solver).toBe('iterative');
    expect(direct.memoryBytes).toBeGreaterThan(b.memoryBytes);
    // conductivity or a loss tangent: complex (Q factors); shift-and-invert Arnoldi with GMRES + BDDC inner
    // solves above 100 k, or when the complex factor (twice the real one) would not fit
    expect(complex).toMatchObject({ solver: 'iterative', complex: true });
    expect(complex.memoryBytes).toBeLessThan(limit);
    expect(smallLossy).toMatchObject({ solver: 'direct', complex: true });
    expect(smallLossy.memoryBytes).toBeGreaterThan(a.memoryBytes);
    expect(smallLossyTight).toMatchObject({ solver: 'iterative', complex: true });
    expect(a.memoryBytes).toBeLessThan(3000 * 1024 * 1024); // the lossless factor fits where the lossy one does not
    expect(largeLossyDirect.memoryBytes).toBeGreaterThan(direct.memoryBytes);
  });

  it('routes a modal job as the engine does: direct while the factor fits, LOBPCG above (1 M unknowns in 8 GB)', () => {
    // Counts only (the estimate reads the lengths): bench/vibration's cantilever meshes, 0.21 M and 1.05 M unknowns.
    const sized = (vertices: number, cells: number, boundaryFaces: number) => ({
      vertices: new Array(vertices),
      faces: new Array(boundaryFaces),
      tetrahedra: new Array(cells),
    });
    const small = sized(10_241, 44_280, 10_100);
    const large = sized(48_836, 235_220, 35_244);
    const modal = AnalysisConfig.parse({ analysisType: 'modal', meshOrder: 2, modalNumModes: 10 });
    const limit = 8192 * 1024 * 1024; // JOB_MEMORY_LIMIT_MB's default
    const a = estimateResources(small, modal, limit);
    const b = estimateResources(large, modal, limit);
    const band = estimateResources(large, AnalysisConfig.parse({ ...modal, modalMinFrequency: 100 }), limit);
    const forced = estimateResources(
      small,
      AnalysisConfig.parse({ ...modal, linearSolver: 'cg-amg' }),
      limit,
    );
    const tight = estimateResources(small, modal, 2 * 1024 ** 3);
    for (const [name, e] of Object.entries({ a, b, band, forced, tight })) {
      console.log(
        `modal ${name}: ${e.unknowns} unknowns, ${e.solver}, ${(e.memoryBytes / 1e9).toFixed(2)} GB`,
      );
    }
    expect(b.unknowns).toBe(1_051_539);
    expect(a).toMatchObject({ solver: 'direct' });
    expect(b).toMatchObject({ solver: 'iterative' });
    expect(b.memoryBytes).toBeLessThan(limit); // runs, instead of being refused or killed by RLIMIT_AS
    expect(band).toMatchObject({ solver: 'direct' }); // a frequency band needs the factor: refused up front
    expect(band.memoryBytes).toBeGreaterThan(limit);
    expect(forced.solver).toBe('iterative');
    expect(tight.solver).toBe('iterative'); // the factor's estimate (≈ 3.7 GB) does not fit 2 GB
  });

  it('estimates structural CG at order 2 from its measured footprint: the 2 M-DOF LE10 mesh fits in 8 GB', () => {
    // bench/structural's LE10 mesh at maxh 0.033 m (counts only: the estimate reads the array lengths).
    const le10 = { vertices: new Array(93_258), faces: new Array(61_542), tetrahedra: new Array(461_293) };
    const config = (linearSolver: string) =>
      AnalysisConfig.parse({ ...CASES['structural, order 2 (three H1 components)'], linearSolver });
    const twoLevel = estimateResources(le10, config('auto'));
    const bddc = estimateResources(le10, config('cg-bddc'));
    console.log(
      `structural LE10 ${twoLevel.unknowns} unknowns: two-level ${(twoLevel.memoryBytes / 1e9).toFixed(2)} GB, ` +
        `BDDC ${(bddc.memoryBytes / 1e9).toFixed(2)} GB (measured peak resident 2.64 GB and 5.64 GB)`,
    );
    expect(twoLevel.unknowns).toBe(2_035_737); // the engine's matrix_size on that mesh
    expect(twoLevel.solver).toBe('iterative');
    expect(twoLevel.memoryBytes).toBeGreaterThan(2.64e9);
    expect(twoLevel.memoryBytes).toBeLessThan(8e9);
    expect(bddc.memoryBytes).toBeGreaterThan(5.64e9);
    // auto goes iterative from 30 k unknowns at order ≥ 2 (60 k otherwise), as the engine does
    const mid = estimateResources(boxMesh([1, 0.2, 0.1], [40, 8, 4]), config('auto'));
    expect(mid.unknowns).toBeGreaterThan(30_000);
    expect(mid.unknowns).toBeLessThan(60_000);
    expect(mid.solver).toBe('iterative');
  });

  it('refuses a run over the memory limit with the estimate and advice, storing nothing', async () => {
    const big = boxMesh([1, 0.2, 0.1], [60, 12, 6]);
    const config = {
      analysisType: 'thermal',
      meshOrder: 3,
      linearSolver: 'direct',
      temperatureConditions: [{ faces: facesOnPlane(big, 0, 0), temperature: 300 }],
    };
    const before = await t.ctx.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await submit(config, big);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('memory_estimate_over_limit');
    expect(body.message).toMatch(
      /^This model needs about \d+\.\d GB of memory \([\d,]+ unknowns, direct solver\) but a job may use 1\.6 GB\. To fit, choose an iterative linear solver \(cg-amg or cg-bddc\), lower the element order \(now 3\), use a coarser mesh\.$/,
    );
    const after = await t.ctx.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const expected = estimateResources(big, AnalysisConfig.parse(config));
    expect(body.estimate).toMatchObject({ unknowns: expected.unknowns, space: 'h1', solver: 'direct' });
    expect(expected.unknowns).toBeGreaterThan(100_000);
  });
});
