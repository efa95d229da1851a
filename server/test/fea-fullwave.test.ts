import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from './support/box-mesh.ts';
import { createTestApp, type TestApp, waitForJob } from './support/test-app.ts';
import { parseTouchstone } from './support/touchstone.ts';
import { registerTestUser } from './support/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const A = 22.86; // WR-90, mm
const B = 10.16;
const L = 60;
const C0 = 299_792_458;

/** An empty WR-90 guide as uploaded tetrahedra (mm) with TE10 wave ports at both ends. */
function waveguideJob() {
  const mesh = { ...boxMesh([A, B, L], [4, 2, 10]), units: 'mm' };
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
  return { mesh_data: mesh, config };
}

describe('full-wave two-port waveguide through the API', () => {
  it('returns S-parameters and a Touchstone file a strict reader parses', async () => {
    const cookie = (await registerTestUser(t.app)).cookie;
    const submit = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: waveguideJob(),
      headers: { cookie },
    });
    expect(submit.statusCode).toBe(200);
    const { job_id } = submit.json();
    const { body } = await waitForJob(t.app, job_id, cookie);
    expect(body.status, body.error).toBe('completed');
    const sp = body.results.s_parameters;
    expect(sp.frequencies).toEqual([9e9, 10e9, 11e9]);
    expect(body.results.solver_info.analysis).toBe('fullwave');

    // S21 of a matched empty guide is e^{-jβL}: check magnitude and phase at 10 GHz.
    const k0 = (2 * Math.PI * 10e9) / C0;
    const beta = Math.sqrt(k0 ** 2 - (Math.PI / (A * 1e-3)) ** 2);
    const [re, im] = sp.matrix[1][1][0] as [number, number];
    const phaseErr = ((((Math.atan2(im, re) + beta * L * 1e-3) * 180) / Math.PI + 540) % 360) - 180;
    expect(Math.abs(Math.hypot(re, im) - 1)).toBeLessThan(1e-2);
    expect(Math.abs(phaseErr)).toBeLessThan(2);

    const s2p = await t.app.inject({
      method: 'GET',
      url: `/api/fea/download/${job_id}?format=touchstone`,
      headers: { cookie },
    });
    expect(s2p.statusCode).toBe(200);
    expect(s2p.headers['content-disposition']).toContain(`fea_sparameters_${job_id}.s2p`);
    const net = parseTouchstone(s2p.body, 'x.s2p');
    expect(net.ports).toBe(2);
    expect(net.parameter).toBe('S');
    expect(net.frequenciesHz).toEqual([9e9, 10e9, 11e9]);
    for (let k = 0; k < 3; k++)
      for (let r = 0; r < 2; r++)
        for (let c = 0; c < 2; c++) {
          const [fr, fi] = (net.s[k]?.[r]?.[c] ?? [Number.NaN, Number.NaN]) as [number, number];
          const [rr, ri] = sp.matrix[k][r][c] as [number, number];
          expect(Math.abs(fr - rr) + Math.abs(fi - ri)).toBeLessThan(1e-9);
        }

    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/fea/download/${job_id}?format=csv`,
      headers: { cookie },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toMatch(/^frequency_hz,S11_re,S11_im,S11_db,S11_deg/);
    expect(lines).toHaveLength(4);

    const stranger = await t.app.inject({
      method: 'GET',
      url: `/api/fea/download/${job_id}?format=touchstone`,
    });
    expect(stranger.statusCode).toBe(404);
    const badFormat = await t.app.inject({
      method: 'GET',
      url: `/api/fea/download/${job_id}?format=xlsx`,
      headers: { cookie },
    });
    expect(badFormat.statusCode).toBe(400);
  });

  it("solves on the iterative path (GMRES + BDDC) when forced, with the direct solve's S-parameters", async () => {
    const cookie = (await registerTestUser(t.app)).cookie;
    const job = waveguideJob();
    const run = async (linearSolver: string) => {
      const submit = await t.app.inject({
        method: 'POST',
        url: '/api/fea/submit',
        payload: { ...job, config: { ...job.config, linearSolver } },
        headers: { cookie },
      });
      expect(submit.statusCode, submit.body).toBe(200);
      const { body } = await waitForJob(t.app, submit.json().job_id, cookie);
      expect(body.status, body.error).toBe('completed');
      return body.results;
    };
    const direct = await run('direct');
    const iterative = await run('gmres-bddc');
    expect(direct.solver_info.linear_solver).toMatch(/^direct/);
    expect(iterative.solver_info.linear_solver).toMatch(/^GMRES \+ BDDC/);
    // every frequency's solve (both ports) reports its iterations, true residual and the tolerance it
    // iterated to: the field frequency's the job's (1e-6), the S-only points' ⅛√1e-6 (their S is
    // adjoint-corrected, engine iterative.py s_only_tolerance), each within the engine's residual limit
    const solves = iterative.solver_info.iterative_solves as {
      frequency: number;
      iterations: number;
      residual: number;
      tolerance: number;
    }[];
    expect(new Set(solves.map((s) => s.frequency))).toEqual(new Set([9e9, 10e9, 11e9]));
    expect(new Set(solves.map((s) => s.tolerance))).toEqual(new Set([1e-6, 1.25e-4]));
    for (const s of solves) {
      expect(s.iterations).toBeGreaterThan(0);
      expect(s.residual).toBeLessThan(Math.max(1e-4, 40 * s.tolerance));
    }
    let worst = 0;
    const d = direct.s_parameters.matrix as [number, number][][][];
    const it = iterative.s_parameters.matrix as [number, number][][][];
    for (let k = 0; k < 3; k++)
      for (let r = 0; r < 2; r++)
        for (let c = 0; c < 2; c++) {
          const [dr, di] = d[k]?.[r]?.[c] ?? [Number.NaN, Number.NaN];
          const [ir, ii] = it[k]?.[r]?.[c] ?? [Number.NaN, Number.NaN];
          worst = Math.max(worst, Math.hypot(ir - dr, ii - di));
        }
    console.log(
      `iterative vs direct S-parameters: max |ΔS| = ${worst.toExponential(1)}, iterations ${solves.map((s) => s.iterations)}`,
    );
    expect(worst).toBeLessThan(1e-5);
  });

  it('runs the adaptive fast sweep when asked (fewer full solves than points) and refuses an unknown sweep type', async () => {
    const cookie = (await registerTestUser(t.app)).cookie;
    const job = waveguideJob();
    const config = {
      ...job.config,
      sParamNumPoints: 21,
      sParamSweepType: 'adaptive',
      sParamAdaptiveTolerance: 1e-4,
    };
    const submit = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: { ...job, config },
      headers: { cookie },
    });
    expect(submit.statusCode).toBe(200);
    const { body } = await waitForJob(t.app, submit.json().job_id, cookie);
    expect(body.status, body.error).toBe('completed');
    const sweep = body.results.solver_info.frequency_sweep;
    expect(sweep.type).toBe('adaptive');
    expect(sweep.tolerance).toBe(1e-4);
    expect(sweep.full_solves).toBeLessThan(21);
    expect(body.results.s_parameters.frequencies).toHaveLength(21);

    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: { ...job, config: { ...job.config, sParamSweepType: 'fast' } },
      headers: { cookie },
    });
    expect(bad.statusCode).toBe(400);
  });
});
