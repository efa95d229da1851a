// @vitest-environment node
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toBackendConfig } from '../../src/environment/config/to-backend-config.ts';
import { curlScript, jqPath, shellQuote } from '../../src/environment/export/curl-script.ts';
import { scriptFileName } from '../../src/environment/export/ExportButtons.tsx';
import { pythonLiteral, pythonScript } from '../../src/environment/export/python-script.ts';
import { faceListsOf, type ScriptSetup, setupFromState } from '../../src/environment/export/setup.ts';
import { initialEnvironmentState } from '../../src/environment/state/environment-state.ts';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const VENV = join(ROOT, '.venv', 'bin', 'python');
const PYTHON = process.env.ENGINE_PYTHON ?? (existsSync(VENV) ? VENV : 'python3');

function python(code: string, stdin = ''): string {
  const run = spawnSync(PYTHON, ['-c', code], { input: stdin, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python failed: ${run.stderr}`);
  return run.stdout;
}

/** A structural set-up on a 12-triangle box: CAD faces 1–6, two triangles each (triangles 2k−1, 2k). */
function boxSetup(config: Record<string, unknown>): ScriptSetup {
  return {
    fileName: 'bar.step',
    units: 'mm',
    unitsEditable: false,
    meshConfig: { analysisType: 'tetra-only', mode: 'tetra-only', meshingOnly: true, meshMaxSize: 4 },
    config,
    facePatches: [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6],
    bodies: [{ region: 0, name: 'Bar' }],
    surfaceTriangles: 12,
    fields: ['von_mises', 'displacement'],
  };
}

const structural = {
  analysisType: 'structural',
  meshOrder: 2,
  fixedSupports: [{ faces: [1, 2], name: 'wall' }],
  forceLoads: [{ faces: [12, 11, 3], force: [0, 0, -200] }],
  flag: true,
  nothing: null,
  ratio: 1e-12,
  label: 'it\'s "quoted" ✓',
};

describe('Export as script: the Python literal of a config', () => {
  it('JSON values become the same Python values (True/False/None, nesting, escapes, exponents)', () => {
    const value = { a: [1, 2.5, -3e-9], b: { c: true, d: false, e: null }, f: 'x"y\\z\n', g: [], h: {} };
    const literal = pythonLiteral(value);
    const back = python(
      'import ast, json, sys; print(json.dumps(ast.literal_eval(sys.stdin.read())))',
      literal,
    );
    expect(JSON.parse(back)).toEqual(value);
  });
});

describe('Export as script: face lists', () => {
  it('a list of whole CAD faces is rebuilt by CAD face; a part of one keeps its ids; each names its body', () => {
    const lists = faceListsOf(boxSetup(structural));
    expect(lists.map((l) => l.path)).toEqual(['fixedSupports[0].faces', 'forceLoads[0].faces']);
    expect(lists[0]?.byPatch).toEqual([1]);
    expect(lists[1]?.byPatch).toBeNull(); // face 3 is half of CAD face 2
    expect(lists[1]?.patches).toEqual([
      { patch: 2, body: 'Bar' },
      { patch: 6, body: 'Bar' },
    ]);
  });

  it("an open coil's and a solid conductor's terminals are face lists too (rebuilt on a new mesh)", () => {
    const magnetic = {
      analysisType: 'magnetostatic',
      coils: [{ name: 'A', region: 0, turns: 10, current: 1, terminals: { in: [3, 4], out: [9] } }],
      solidConductors: [{ region: 0, current: 1, terminals: { in: [5, 6], out: [7, 8] } }],
    };
    const lists = faceListsOf(boxSetup(magnetic));
    expect(lists.map((l) => [l.path, l.byPatch])).toEqual([
      ['coils[0].terminals.in', [2]],
      ['coils[0].terminals.out', null], // half of CAD face 5
      ['solidConductors[0].terminals.in', [3]],
      ['solidConductors[0].terminals.out', [4]],
    ]);
  });

  it('without CAD faces (or ids beyond the mesh) every list is by id', () => {
    const setup = { ...boxSetup(structural), facePatches: undefined };
    expect(faceListsOf(setup).every((l) => l.byPatch === null)).toBe(true);
  });
});

describe('Export as script: the Python file', () => {
  it('is valid Python whose config, with the face lists rebuilt, is the submitted config', () => {
    const script = pythonScript(boxSetup(structural));
    python('import ast, sys; ast.parse(sys.stdin.read())', script);
    expect(script).toContain('MESH_OPTIONS = {\n    "mode": "tetra-only",\n    "meshMaxSize": 4,\n}');
    expect(script).toContain('fl.upload(MODEL_FILE, units=None)');
    expect(script).toContain('# 2 faces (whole CAD faces): Bar, CAD face 1');
    expect(script).toContain('"faces": faces_of(1),');
    expect(script).toContain('# 3 faces (by id): Bar, CAD face 2; Bar, CAD face 6');
    expect(script).toContain('"faces": [12, 11, 3],');
    // without the environment's meshing job it meshes the file; the id lists are checked by triangle count
    expect(script).toContain('MESH_JOB = None');
    expect(script).toContain('if mesh.job_id != MESH_JOB and len(mesh.triangles) != 12:');
    expect(script).toContain('for name in ["von_mises", "displacement"]:');
    // Evaluate the config block with a stand-in mesh whose CAD faces are the environment's.
    const start = script.indexOf('    config = ');
    const block = script.slice(start, script.indexOf('    job = fl.run', start));
    const code = [
      'import json, sys',
      'import numpy as np',
      'class M:',
      '    face_patches = np.array([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6])',
      '    def faces_of_patch(self, p): return [int(i) + 1 for i in np.flatnonzero(self.face_patches == p)]',
      'mesh = M()',
      'def faces_of(*patches): return sorted(i for p in patches for i in mesh.faces_of_patch(p))',
      'if True:',
      block,
      'print(json.dumps(config))',
    ].join('\n');
    expect(JSON.parse(python(code))).toEqual(structural);
  });

  it("runs on the environment's meshing job while it is there, else meshes the model again", () => {
    const script = pythonScript({ ...boxSetup(structural), meshJobId: 'mesh-job-1' });
    python('import ast, sys; ast.parse(sys.stdin.read())', script);
    expect(script).toContain('MESH_JOB = "mesh-job-1"');
    expect(script).toContain('fl.job(MESH_JOB).status()');
    expect(script).toContain('os.environ.get("FIELDLINE_REMESH")');
    expect(script).toContain('        mesh = fl.mesh(part, **MESH_OPTIONS)');
  });

  it('STL units are sent with the upload; a set-up without faces says so and skips the checks', () => {
    const setup = { ...boxSetup({ analysisType: 'thermal' }), unitsEditable: true, units: 'cm' };
    const script = pythonScript(setup);
    expect(script).toContain('fl.upload(MODEL_FILE, units="cm")');
    expect(script).toContain('# This set-up names no faces.');
    expect(script).not.toContain('faces_of');
    expect(script).not.toContain('len(mesh.triangles)');
  });

  it('the file is named after the model', () => {
    expect(scriptFileName('WR-90 guide.step')).toBe('WR_90_guide_fieldline.py');
    expect(scriptFileName('3d.stl')).toBe('_3d_fieldline.py');
  });
});

describe('Export as script from the environment state', () => {
  it('carries toBackendConfig exactly as Run Analysis and Generate Volume Mesh send it', () => {
    const state = initialEnvironmentState();
    state.form = { ...state.form, physics: 'structural' };
    state.meshing.options = { maxElementSize: 3, grading: 0.4 };
    state.bodies = [{ region: 0, name: 'Bracket', visible: true }];
    state.model = {
      fileName: 'bracket.step',
      format: 'step',
      unitsEditable: false,
      uploadId: 'u1',
      facePatches: [1, 1],
      mesh: {
        vertices: [
          [0, 0, 0],
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ],
        faces: [
          [1, 2, 3],
          [1, 2, 4],
        ],
        tetrahedra: [[0, 1, 2, 3]],
        units: 'mm',
      },
    };
    const setup = setupFromState(state);
    expect(setup?.config).toEqual(toBackendConfig(state.form, { bodies: state.bodies }));
    expect(setup?.meshConfig).toMatchObject({ meshMaxSize: 3, meshGrading: 0.4, meshingOnly: true });
    expect(setup?.units).toBe('mm');
    expect(
      setupFromState({ ...state, model: { ...state.model, mesh: { ...state.model.mesh, tetrahedra: [] } } }),
    ).toBeNull();
  });
});

describe('Copy as curl', () => {
  it('uploads, meshes, polls, submits the same config and reads the quantities, with a token placeholder', () => {
    const text = curlScript(boxSetup(structural));
    expect(text).toContain('Authorization: Bearer $FIELDLINE_TOKEN');
    expect(text).toContain(`CONFIG=${shellQuote(JSON.stringify(structural))}`);
    expect(text).toContain('"meshMaxSize":4');
    expect(text).toContain('/api/convert-step');
    expect(text.match(/\/api\/fea\/submit/g)).toHaveLength(2);
    const syntax = spawnSync('bash', ['-n'], { input: text, encoding: 'utf8' });
    expect(syntax.status, syntax.stderr).toBe(0);
  });

  it("submits the meshing job's mesh with whole-CAD-face lists rebuilt from its face_patches (jq)", () => {
    const text = curlScript({ ...boxSetup(structural), meshJobId: 'mesh-job-1' });
    expect(text).toContain("MESH_JOB='mesh-job-1'");
    expect(jqPath('a[0].b.faces[12]')).toEqual(['a', 0, 'b', 'faces', 12]);
    // The submit's jq filter on a stand-in meshing status whose CAD face 1 is now triangles 5 and 7.
    const filter = /JOB=\$\(jq --argjson c "\$CONFIG" '([^']*)' mesh\.json/.exec(text)?.[1] ?? '';
    const status = {
      status: 'completed',
      results: {
        vertices: [[0, 0, 0]],
        faces: [[0, 0, 0]],
        tetrahedra: [[0, 0, 0, 0]],
        face_patches: [2, 3, 2, 4, 1, 3, 1],
      },
    };
    const jq = spawnSync('jq', ['-c', '--argjson', 'c', JSON.stringify(structural), filter], {
      input: JSON.stringify(status),
      encoding: 'utf8',
    });
    expect(jq.status, jq.stderr).toBe(0);
    const submitted = JSON.parse(jq.stdout) as {
      mesh_data: Record<string, unknown>;
      config: typeof structural;
    };
    expect(submitted.config).toEqual({ ...structural, fixedSupports: [{ faces: [5, 7], name: 'wall' }] });
    expect(Object.keys(submitted.mesh_data).sort()).toEqual([
      'face_patches',
      'faces',
      'tetrahedra',
      'vertices',
    ]);
    // a list given by id is checked against the environment's triangle count on a new mesh
    expect(text).toContain(`[ "$(jq '.results.faces | length' mesh.json)" = 12 ]`);
  });

  it('quotes single quotes for the shell', () => {
    const run = spawnSync('bash', ['-c', `printf %s ${shellQuote("it's")}`], { encoding: 'utf8' });
    expect(run.stdout).toBe("it's");
  });
});
