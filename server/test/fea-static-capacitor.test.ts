import { execFileSync } from 'node:child_process';
import { ResultsInfoResponse } from '@fieldline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, waitForJob } from './support/test-app.ts';
import { registerTestUser } from './support/users.ts';

/** A STEP capacitor meshed with netgen by the engine's test helper (engine/fieldline_engine/testing). */
interface Capacitor {
  mesh_data: { vertices: number[][]; faces: number[][]; tetrahedra: number[][]; units: string };
  groups: { top: number[]; bottom: number[] };
  area_m2: number;
  gap_m: number;
}

let t: TestApp;
let cap: Capacitor;
beforeAll(async () => {
  t = await createTestApp();
  const out = execFileSync(
    t.ctx.config.enginePython,
    ['-m', 'fieldline_engine.testing.occ_capacitor', '2.0'],
    {
      cwd: t.ctx.config.engineDir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  cap = JSON.parse(out) as Capacitor;
});
afterAll(async () => {
  await t.close();
});

const EPS0 = 8.8541878128e-12;
const EPS_R = 4.4;

describe('electrostatic capacitor through the API', () => {
  it('solves two Dirichlet face groups on a meshed STEP model and returns the spec 001 §3 results', async () => {
    expect(cap.groups.top.length).toBeGreaterThan(0);
    expect(cap.groups.bottom.length).toBeGreaterThan(0);
    const config = {
      analysisType: 'em',
      frequency: 0,
      meshOrder: 2,
      defaultPermittivity: EPS_R * EPS0,
      dirichletFaceConditions: [
        { faces: cap.groups.bottom, voltage: 0, name: 'bottom plate' },
        { faces: cap.groups.top, voltage: 3, name: 'top plate' },
      ],
      gridFieldsEnabled: true,
      gridResolution: [5, 4, 3],
    };
    const cookie = (await registerTestUser(t.app)).cookie; // analyses need an account
    const submit = await t.app.inject({
      method: 'POST',
      url: '/api/fea/submit',
      payload: { mesh_data: cap.mesh_data, config },
      headers: { cookie },
    });
    expect(submit.statusCode).toBe(200);
    const { job_id } = submit.json();
    const { body } = await waitForJob(t.app, job_id, cookie);
    expect(body.status, body.error).toBe('completed');
    const r = body.results;

    // Spec 001 §3 shape.
    expect(r.solver_info).toMatchObject({
      elements: cap.mesh_data.tetrahedra.length,
      frequency: 0,
      analysis: 'electrostatics',
      element_order: 2,
      linear_solver: 'direct (sparse Cholesky)',
    });
    expect(r.solver_info.matrix_size).toBeGreaterThan(cap.mesh_data.vertices.length);
    expect(r.solver_info.non_zeros).toBeGreaterThan(r.solver_info.matrix_size);
    expect(r.computation_time).toBeGreaterThan(0);
    const nv = cap.mesh_data.vertices.length;
    expect(r.vertices).toHaveLength(nv);
    expect(r.faces).toHaveLength(cap.mesh_data.faces.length);
    expect(r.tetrahedra).toHaveLength(cap.mesh_data.tetrahedra.length);
    for (const key of ['e_magnitudes', 'h_magnitudes'] as const) {
      expect(r.field_magnitudes[key]).toMatchObject({ format: 'dense', size: nv });
      expect(r.field_magnitudes[key].data).toHaveLength(nv);
    }
    expect(r.efields.size).toBe(nv);
    expect(r.efields.data['0']).toHaveLength(3);
    expect(Object.keys(r.hfields.data)).toHaveLength(nv);
    expect(r.potential.data).toHaveLength(nv);

    // Physics: E = V/d everywhere, C = εA/d, no magnetic field without current.
    const exactE = 3 / cap.gap_m;
    const e: number[] = r.field_magnitudes.e_magnitudes.data;
    expect(Math.max(...e.map((v) => Math.abs(v - exactE) / exactE))).toBeLessThan(1e-6);
    expect(Math.max(...r.field_magnitudes.h_magnitudes.data)).toBe(0);
    const exactC = (EPS_R * EPS0 * cap.area_m2) / cap.gap_m;
    expect(Math.abs(r.quantities.capacitance_F - exactC) / exactC).toBeLessThan(1e-6);
    expect(r.quantities.terminal_charges_C['top plate']).toBeCloseTo(exactC * 3, 20);
    const matrix: number[][] = r.quantities.capacitance_matrix_F.matrix;
    expect(r.quantities.capacitance_matrix_F.terminals).toEqual(['bottom plate', 'top plate']);
    expect(Math.abs((matrix[0]?.[1] ?? 0) - (matrix[1]?.[0] ?? 1))).toBeLessThan(1e-6 * exactC);
    expect(matrix[1]?.[1]).toBeCloseTo(exactC, 20);
    expect(r.grid.resolution).toEqual([5, 4, 3]);
    expect(r.grid.fields.e_magnitude).toHaveLength(60);

    const download = await t.app.inject({
      method: 'GET',
      url: `/api/fea/download/${job_id}`,
      headers: { cookie },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain(`fea_results_${job_id}.json`);
    const downloaded = JSON.parse(download.body);
    expect(downloaded.quantities.capacitance_F).toBe(r.quantities.capacitance_F);
    expect(downloaded.vertices).toHaveLength(nv);

    const info = await t.app.inject({
      method: 'GET',
      url: `/api/fea/results/${job_id}/info`,
      headers: { cookie },
    });
    expect(info.statusCode).toBe(200);
    const described = ResultsInfoResponse.parse(info.json()); // the documented reply (/api/docs)
    expect(described).toMatchObject({ job_id, status: 'completed', kind: 'analysis', analysis_type: 'em' });
    const names = described.files.map((f: { name: string }) => f.name);
    expect(names).toContain('results.json');
    expect(described.files.every((f: { bytes: number }) => f.bytes > 0)).toBe(true);
    expect(described.contents).toMatchObject({
      analysis: 'electrostatics',
      frequency: 0,
      elements: cap.mesh_data.tetrahedra.length,
      vertices: nv,
      complex_fields: false,
      grid: { resolution: [5, 4, 3] },
      animation: null,
    });
    expect(described.contents?.field_magnitudes).toEqual(['e_magnitudes', 'h_magnitudes']);
    // The named fields, as the results file's catalogue lists them (docs/multiphysics.md §1).
    expect(described.contents?.fields).toEqual([
      {
        name: 'electric_field',
        label: 'Electric field',
        unit: 'V/m',
        kind: 'vector',
        location: 'vertex',
        complex: false,
      },
      {
        name: 'magnetic_field',
        label: 'Magnetic field',
        unit: 'A/m',
        kind: 'vector',
        location: 'vertex',
        complex: false,
      },
      {
        name: 'potential',
        label: 'Electric potential',
        unit: 'V',
        kind: 'scalar',
        location: 'vertex',
        complex: false,
      },
    ]);
    expect(described.contents?.quantities).toEqual(
      expect.arrayContaining([
        'capacitance_F',
        'capacitance_matrix_F',
        'terminal_charges_C',
        'stored_energy_J',
      ]),
    );
  });
});
