// @vitest-environment node
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeResultsBinary,
  ResultsBinaryError,
  viewerPayloadFromResultsJson,
} from '../../src/results-format/index.ts';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const PYTHON = process.env.ENGINE_PYTHON ?? join(ROOT, '.venv', 'bin', 'python');

/** Runs Python with the engine importable; returns stdout. */
function python(code: string, cwd: string): string {
  const run = spawnSync(PYTHON, ['-c', code], {
    cwd,
    env: { ...process.env, PYTHONPATH: join(ROOT, 'engine') },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`python failed: ${run.stderr}`);
  return run.stdout;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fieldline-bin-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('results.bin written by the engine, decoded in TypeScript', () => {
  it('round-trips a real electrostatic solve: same values as results.json', () => {
    // A two-body box (air | dielectric) between plates at 0 V and 2 V, solved by the real engine.
    python(
      `
import json
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane
mesh = box_mesh((2.0, 1.0, 1.0), (4, 2, 2))
mesh["tetrahedron_regions"] = [0 if i < len(mesh["tetrahedra"]) // 2 else 1 for i in range(len(mesh["tetrahedra"]))]
mesh["region_names"] = ["air", "ptfe"]
mesh["units"] = "mm"
config = {"analysisType": "em", "dirichletFaceConditions": [
  {"faces": faces_on_plane(mesh, 2, 0.0), "voltage": 0.0},
  {"faces": faces_on_plane(mesh, 2, 1.0), "voltage": 2.0}]}
json.dump({"mesh_data": mesh, "config": config}, open("job.json", "w"))
`,
      dir,
    );
    const solve = spawnSync(PYTHON, ['-m', 'fieldline_engine', 'solve', '--job', dir], {
      env: { ...process.env, PYTHONPATH: join(ROOT, 'engine') },
      encoding: 'utf8',
    });
    expect(solve.stdout).toContain('"event":"done"');
    const json = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    const bin = readFileSync(join(dir, 'results.bin'));
    const decoded = decodeResultsBinary(bin);

    const { mesh, fields } = decoded;
    expect(mesh.units).toBe('mm');
    expect(mesh.bodies.map((b) => b.name)).toEqual(['air', 'ptfe']);
    expect(mesh.positions.length).toBe(json.vertices.length * 3);
    json.vertices.forEach((v: number[], i: number) => {
      for (let k = 0; k < 3; k++) expect(mesh.positions[3 * i + k]).toBeCloseTo(v[k]!, 6);
    });
    expect(Array.from(mesh.triangles)).toEqual(json.faces.flat());
    expect(Array.from(mesh.tetrahedra ?? [])).toEqual(json.tetrahedra.flat());
    expect(Array.from(mesh.tetrahedronBodies ?? [])).toEqual(json.tetrahedron_regions);
    expect(mesh.triangleBodies?.length).toBe(json.faces.length);

    // results.bin carries the named fields; the spec's keys in results.json are written from the same.
    expect(Object.keys(fields!)).toEqual(['electric_field', 'magnetic_field', 'potential']);
    expect(fields!.electric_field).toMatchObject({ label: 'Electric field', unit: 'V/m', kind: 'vector' });
    const ev3 = fields!.electric_field!.values;
    const magnitude = (i: number) => Math.hypot(ev3[3 * i]!, ev3[3 * i + 1]!, ev3[3 * i + 2]!);
    const e: number[] = json.field_magnitudes.e_magnitudes.data;
    let worst = 0;
    e.forEach((v, i) => {
      worst = Math.max(worst, Math.abs(magnitude(i) - v) / Math.max(1e-30, Math.abs(v)));
    });
    console.log(`results.bin vs results.json: worst relative |E| difference ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(1e-6); // float32 round-off only
    // E = V/d = 2 V / 1 mm-unit in the uniform gap (lengths are in mm, so 2000 V/m).
    expect(magnitude(0)).toBeCloseTo(2000, 0);
    const ev = json.efields.data['5'] as number[];
    for (let k = 0; k < 3; k++) expect(ev3[15 + k]).toBeCloseTo(ev[k]!, 3);
    expect(fields!.potential!.values.length).toBe(json.vertices.length);

    // The JSON converter gives the same payload (modulo float32 rounding).
    const fromJson = viewerPayloadFromResultsJson(json);
    expect(Array.from(fromJson.mesh.triangles)).toEqual(Array.from(mesh.triangles));
    expect(fromJson.mesh.units).toBe('mm');
    expect(Array.from(fromJson.fields!.electric_field!.values)).toEqual(Array.from(ev3));
  });

  it('decodes animation frames written by the engine', () => {
    python(
      `
from fieldline_engine.post.results_binary import write_results_binary
from pathlib import Path
verts = [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]
u = {"label": "Displacement", "unit": "m", "kind": "vector", "location": "vertex", "complex": False,
     "role": "deformation", "data": [[0, 0, 0]] * 4}
frames = [{"displacement": [[k, 0, 0]] * 4} for k in range(3)]
write_results_binary(Path("."), {"vertices": verts, "faces": [[0,1,2],[0,1,3],[0,2,3],[1,2,3]],
  "tetrahedra": [[0,1,2,3]], "fields": {"displacement": u},
  "animation": {"frames": 3, "axis": "mode", "unit": "Hz", "frame_values": [10, 20, 30],
                "frame_labels": ["mode 1", "mode 2", "mode 3"], "fields": ["displacement"], "data": frames}})
`,
      dir,
    );
    const { animation, fields } = decodeResultsBinary(readFileSync(join(dir, 'results.bin')));
    expect(fields?.displacement).toMatchObject({ unit: 'm', kind: 'vector', role: 'deformation' });
    expect(animation?.axis).toBe('mode');
    expect(animation?.unit).toBe('Hz');
    expect(animation?.frameValues).toEqual([10, 20, 30]);
    expect(animation?.frameLabels).toEqual(['mode 1', 'mode 2', 'mode 3']);
    expect(animation?.frames.map((f) => f.displacement?.[3])).toEqual([0, 1, 2]);
  });

  it('refuses files that are not results.bin', () => {
    expect(() => decodeResultsBinary(new TextEncoder().encode('{"vertices": []}'))).toThrow(
      ResultsBinaryError,
    );
    const bad = new Uint8Array(32);
    bad.set(new TextEncoder().encode('FLRB'));
    new DataView(bad.buffer).setUint32(4, 99, true);
    expect(() => decodeResultsBinary(bad)).toThrow(/version 99/);
  });
});

/** A results.bin of format version 1 (before the named-field catalogue), as older jobs left them. */
function encodeVersion1(
  arrays: Record<string, { dtype: 'float32' | 'uint32'; shape: number[]; data: number[] }>,
) {
  const entries: Record<string, unknown> = {};
  let cursor = 1024;
  const chunks: [number, ArrayBuffer][] = [];
  for (const [name, a] of Object.entries(arrays)) {
    const typed = a.dtype === 'float32' ? new Float32Array(a.data) : new Uint32Array(a.data);
    entries[name] = { dtype: a.dtype, shape: a.shape, offset: cursor, byte_length: typed.byteLength };
    chunks.push([cursor, typed.buffer as ArrayBuffer]);
    cursor += Math.ceil(typed.byteLength / 16) * 16;
  }
  const header = new TextEncoder().encode(
    JSON.stringify({
      format: 'fieldline-results-binary',
      version: 1,
      units: 'm',
      region_names: [],
      field_units: { E: 'V/m', H: 'A/m', potential: 'V' },
      animation: { kind: 'phase', frame_count: 1, frame_values: [90] },
      arrays: entries,
    }),
  );
  const out = new Uint8Array(cursor);
  out.set(new TextEncoder().encode('FLRB'));
  new DataView(out.buffer).setUint32(4, 1, true);
  new DataView(out.buffer).setUint32(8, 1024 - 12, true);
  out.fill(32, 12, 1024);
  out.set(header, 12);
  for (const [offset, buf] of chunks) out.set(new Uint8Array(buf), offset);
  return out;
}

describe('results.bin version 1', () => {
  it('maps the spec-named EM arrays onto the catalogue', () => {
    const blob = encodeVersion1({
      vertices: { dtype: 'float32', shape: [4, 3], data: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1] },
      triangles: { dtype: 'uint32', shape: [1, 3], data: [0, 1, 2] },
      efields: { dtype: 'float32', shape: [4, 3], data: [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0] },
      h_magnitudes: { dtype: 'float32', shape: [4], data: [1, 1, 2, 2] },
      potential: { dtype: 'float32', shape: [4], data: [0, 1, 2, 3] },
      'frames/0/e_magnitudes': { dtype: 'float32', shape: [4], data: [9, 9, 9, 9] },
    });
    const { fields, animation } = decodeResultsBinary(blob);
    expect(Object.keys(fields!)).toEqual(['electric_field', 'magnetic_field', 'potential']);
    expect(fields!.electric_field).toMatchObject({ unit: 'V/m', kind: 'vector' });
    expect(fields!.magnetic_field).toMatchObject({ unit: 'A/m', kind: 'scalar' });
    expect(Array.from(fields!.potential!.values)).toEqual([0, 1, 2, 3]);
    expect(animation).toMatchObject({ axis: 'phase', frameValues: [90] });
    expect(Array.from(animation!.frames[0]!.electric_field!)).toEqual([9, 9, 9, 9]);
  });
});
