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
} from '../../src/results/index.ts';

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

    const e: number[] = json.field_magnitudes.e_magnitudes.data;
    let worst = 0;
    e.forEach((v, i) => {
      worst = Math.max(worst, Math.abs(fields!.eMagnitude![i]! - v) / Math.max(1e-30, Math.abs(v)));
    });
    console.log(`results.bin vs results.json: worst relative |E| difference ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(1e-6); // float32 round-off only
    // E = V/d = 2 V / 1 mm-unit in the uniform gap (lengths are in mm, so 2000 V/m).
    expect(fields!.eMagnitude![0]).toBeCloseTo(2000, 0);
    const ev = json.efields.data['5'] as number[];
    for (let k = 0; k < 3; k++) expect(fields!.eVectors![15 + k]).toBeCloseTo(ev[k]!, 3);
    expect(fields!.potential!.length).toBe(json.vertices.length);

    // The JSON converter gives the same payload (modulo float32 rounding).
    const fromJson = viewerPayloadFromResultsJson(json);
    expect(Array.from(fromJson.mesh.triangles)).toEqual(Array.from(mesh.triangles));
    expect(fromJson.mesh.units).toBe('mm');
    expect(Array.from(fromJson.fields!.eMagnitude!)).toEqual(Array.from(fields!.eMagnitude!));
  });

  it('decodes animation frames written by the engine', () => {
    python(
      `
from fieldline_engine.post.results_binary import write_results_binary
from pathlib import Path
verts = [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]
frames = [{"e_magnitudes": [k, k, k, k], "efields": [[k, 0, 0]] * 4} for k in range(3)]
write_results_binary(Path("."), {"vertices": verts, "faces": [[0,1,2],[0,1,3],[0,2,3],[1,2,3]],
  "tetrahedra": [[0,1,2,3]], "animation": {"frames": 3, "kind": "time", "frame_values": [0, 1e-9, 2e-9], "data": frames}})
`,
      dir,
    );
    const { animation, fields } = decodeResultsBinary(readFileSync(join(dir, 'results.bin')));
    expect(fields).toBeUndefined();
    expect(animation?.kind).toBe('time');
    expect(animation?.frameValues).toEqual([0, 1e-9, 2e-9]);
    expect(animation?.frames.map((f) => f.eMagnitude?.[2])).toEqual([0, 1, 2]);
    expect(Array.from(animation!.frames[2]!.eVectors!.subarray(0, 3))).toEqual([2, 0, 0]);
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
