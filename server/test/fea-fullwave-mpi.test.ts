import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from './support/box-mesh.ts';
import { createTestApp, type TestApp, waitForJob } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

// A worker with MPI_SLOTS=2 runs a full-wave sweep on 2 MPI ranks (docs/distributed.md): the real engine
// under its launcher (mpiexec from the mpich wheel), each rank with half the job's memory, and the run is
// charged for 2 cores (docs/billing.md).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MPI_SLOTS: '2' });
});
afterAll(async () => {
  await t.close();
});

const A = 22.86; // WR-90, mm
const L = 60;
const C0 = 299_792_458;

describe('a full-wave job on 2 MPI ranks', () => {
  it('shares the sweep between the ranks, returns the closed-form S21 and charges 2 cores', async () => {
    const { cookie } = await registerTestUser(t.app);
    const mesh = { ...boxMesh([A, 10.16, L], [4, 2, 10]), units: 'mm' };
    const config = {
      analysisType: 'em',
      frequency: 10e9,
      meshOrder: 2,
      useWavePorts: true,
      wavePorts: [
        { portID: 1, faces: facesOnPlane(mesh, 2, 0), mode: 'TE10' },
        { portID: 2, faces: facesOnPlane(mesh, 2, L), mode: 'TE10', amplitude: 0 },
      ],
      calculateSParameters: true,
      sParamFreqMin: 9e9,
      sParamFreqMax: 11e9,
      sParamNumPoints: 3,
    };
    const submit = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: { mesh_data: mesh, config },
      headers: { cookie },
    });
    expect(submit.statusCode).toBe(200);
    const { job_id } = submit.json();
    const { body } = await waitForJob(t.app, job_id, cookie);
    expect(body.status, body.error).toBe('completed');
    const mpi = body.results.solver_info.mpi;
    expect(mpi.ranks).toBe(2);
    // 3 frequencies on 2 ranks: whole frequencies, the field frequency (10 GHz) on rank 0.
    expect(mpi.tasks_per_rank[0][0]).toEqual({ frequency: 10e9, ports: [1, 2] });
    expect(mpi.tasks_per_rank[1]).toHaveLength(1);
    const sp = body.results.s_parameters;
    expect(sp.frequencies).toEqual([9e9, 10e9, 11e9]);
    const k0 = (2 * Math.PI * 10e9) / C0;
    const beta = Math.sqrt(k0 ** 2 - (Math.PI / (A * 1e-3)) ** 2);
    const [re, im] = sp.matrix[1][1][0] as [number, number];
    const phaseErr = ((((Math.atan2(im, re) + beta * L * 1e-3) * 180) / Math.PI + 540) % 360) - 180;
    console.log(
      `2 ranks: |S21| ${Math.hypot(re, im).toFixed(4)}, ∠S21 error ${phaseErr.toFixed(2)}° (order 2)`,
    );
    expect(Math.abs(Math.hypot(re, im) - 1)).toBeLessThan(1e-2);
    expect(Math.abs(phaseErr)).toBeLessThan(2);

    // Charged for 2 cores: the ledger's core-seconds are twice the job's wall seconds.
    const row = await t.ctx.jobs.get(job_id);
    const [entry] = await t.ctx.db
      .selectFrom('usage_ledger')
      .selectAll()
      .where('job_id', '=', job_id)
      .execute();
    expect(entry?.compute_seconds).toBeCloseTo(2 * (row?.compute_seconds ?? 0), 6);
    expect(entry?.description).toContain('× 2 cores');
  });
});
