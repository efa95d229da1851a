import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from './support/box-mesh.ts';
import { createTestApp, type TestApp, waitForJob } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const W = 10; // parallel-plate line, mm
const D = 5;
const LEN = 20;
const ETA0 = 376.730313;

/** A parallel-plate line (PMC sides, Z0 = η0·d/w) driven by a voltage between its plates, shorted at the far end. */
function transientJob() {
  const mesh = { ...boxMesh([W, D, LEN], [2, 1, 8]), units: 'mm' };
  const config = {
    analysisType: 'em-time',
    timeStep: 4e-12,
    endTime: 0.7e-9,
    meshOrder: 2,
    pulseWidth: 40e-12,
    animate: true,
    animationFrames: 10,
    portImpedance: (ETA0 * D) / W, // the line's own impedance: a matched source absorbs the echo
    dirichletFaceConditions: [
      { faces: facesOnPlane(mesh, 1, D), voltage: 1, name: 'top' },
      { faces: [...facesOnPlane(mesh, 1, 0), ...facesOnPlane(mesh, 2, LEN)], voltage: 0, name: 'bottom' },
    ],
    neumannConditions: [{ faces: [...facesOnPlane(mesh, 0, 0), ...facesOnPlane(mesh, 0, W)], flux: 0 }],
    probePoints: [[W / 2, D / 2, LEN / 2]],
  };
  return { mesh_data: mesh, config };
}

interface Header {
  animation: { axis: string; frame_count: number; frame_values: number[] } | null;
  arrays: Record<string, { dtype: string; shape: number[]; offset: number; byte_length: number }>;
}

function readHeader(bytes: Buffer): Header {
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('FLRB');
  const length = bytes.readUInt32LE(8);
  return JSON.parse(bytes.subarray(12, 12 + length).toString('utf8')) as Header;
}

function maxOf(bytes: Buffer, header: Header, name: string): number {
  const entry = header.arrays[name];
  if (!entry) throw new Error(`results.bin lacks ${name}`);
  let max = 0;
  for (let i = 0; i < entry.byte_length; i += 4)
    max = Math.max(max, Math.abs(bytes.readFloatLE(entry.offset + i)));
  return max;
}

describe('time-domain job through the API', () => {
  it('returns time_domain_info and animation frames the viewer can play from results.bin', async () => {
    const cookie = (await registerTestUser(t.app)).cookie;
    const submit = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: transientJob(),
      headers: { cookie },
    });
    expect(submit.statusCode).toBe(200);
    const { job_id } = submit.json();
    const { body } = await waitForJob(t.app, job_id, cookie);
    expect(body.status, body.error).toBe('completed');
    const results = body.results;
    expect(results.solver_info.analysis).toBe('em-time');
    const info = results.time_domain_info;
    expect(info.scheme).toBe('newmark');
    expect(info.steps).toBe(175);
    expect(info.times).toHaveLength(176);
    expect(info.probes[0].e).toHaveLength(176);
    expect(info.voltage_sources[0].between.sort()).toEqual(['bottom', 'top']);
    expect(results.animation.frames).toBe(10);
    expect(results.animation.axis).toBe('time');

    const res = await t.app.inject({
      method: 'GET',
      url: `/api/fea/results/${job_id}/binary`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    const bytes = res.rawPayload;
    const header = readHeader(bytes);
    expect(header.animation?.axis).toBe('time');
    expect(header.animation?.frame_count).toBe(10);
    expect(header.animation?.frame_values[9]).toBeCloseTo(0.7e-9, 15);
    const nv = results.vertices.length;
    for (let k = 0; k < 10; k++) {
      expect(header.arrays[`frames/${k}/electric_field`]?.shape).toEqual([nv, 3]);
      expect(header.arrays[`frames/${k}/magnetic_field`]?.shape).toEqual([nv, 3]);
    }
    // The pulse travels: the frames differ (field in flight mid-run, almost nothing left at the end).
    const mid = maxOf(bytes, header, 'frames/3/electric_field');
    const last = maxOf(bytes, header, 'frames/9/electric_field');
    expect(mid).toBeGreaterThan(10);
    expect(last).toBeLessThan(mid / 10);

    const stranger = await t.app.inject({ method: 'GET', url: `/api/fea/results/${job_id}/binary` });
    expect(stranger.statusCode).toBe(404);
  });

  it('refines adaptively: every pass runs the whole transient, the passes and the final mesh come back', async () => {
    const job = transientJob();
    const cookie = (await registerTestUser(t.app)).cookie;
    const adaptiveRefinement = {
      tolerance: 0.001,
      quantity: 'peak_port_voltage_V',
      maxPasses: 2,
      maxUnknowns: 20000,
    };
    const submit = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: { ...job, config: { ...job.config, animate: false, adaptiveRefinement } },
      headers: { cookie },
    });
    expect(submit.statusCode, submit.body).toBe(200);
    const { body } = await waitForJob(t.app, submit.json().job_id, cookie);
    expect(body.status, body.error).toBe('completed');
    const results = body.results;
    const passes = results.solver_info.adaptive_passes;
    console.log(
      `em-time adaptive job: ${passes.map((p: { unknowns: number; quantity: number }) => `${p.unknowns} unknowns V ${p.quantity.toFixed(4)}`).join(', ')}; ${results.solver_info.adaptive_refinement.message}`,
    );
    expect(passes).toHaveLength(2);
    expect(results.solver_info.adaptive_refinement.quantity).toBe('peak_port_voltage_V');
    // a source matched to the line sees half its EMF (1 V) while the pulse leaves it
    expect(results.quantities.peak_port_voltage_V).toBeCloseTo(0.5, 1);
    expect(results.quantities.peak_port_voltage_V).toBe(passes[1].quantity);
    expect(results.tetrahedra.length).toBe(passes[1].elements);
    expect(passes[1].elements).toBeGreaterThan(job.mesh_data.tetrahedra.length);
    expect(results.fields.error_indicator.data).toHaveLength(results.tetrahedra.length);
    expect(results.time_domain_info.times).toHaveLength(176);
  });

  it('refuses an explicit step above the stability limit with the limit in the message', async () => {
    const job = transientJob();
    const cookie = (await registerTestUser(t.app)).cookie;
    const submit = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: { ...job, config: { ...job.config, timeScheme: 'explicit', timeStep: 1e-10, endTime: 1e-9 } },
      headers: { cookie },
    });
    const { body } = await waitForJob(t.app, submit.json().job_id, cookie);
    expect(body.status).toBe('failed');
    expect(body.error).toMatch(/timeStep 1e-10 s is above the explicit scheme's stability limit \d/);
  });
});
