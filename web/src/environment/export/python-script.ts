/**
 * "Export as script": the environment's set-up as a Python file for the fieldline client (docs/api.md). Pure: it
 * takes the configs exactly as the environment sends them (toBackendConfig for the meshing job and for Run
 * Analysis) and writes the code that uploads, meshes with the same options, runs and reads the results.
 */
import { type FaceListSource, faceListsOf, type ScriptSetup } from './setup.ts';

/** A JSON value as a Python literal; `face(path)` may replace a face list by an expression (with comments). */
export function pythonLiteral(
  value: unknown,
  indent = 0,
  face?: (path: string) => { comment: string; expr: string } | undefined,
  path = '',
): string {
  const pad = '    '.repeat(indent + 1);
  const end = '    '.repeat(indent);
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return "float('nan')";
    if (!Number.isFinite(value)) return value > 0 ? "float('inf')" : "-float('inf')";
    return String(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => typeof v !== 'object' || v === null)) {
      return `[${value.map((v) => pythonLiteral(v)).join(', ')}]`;
    }
    const items = value.map((v, i) => `${pad}${pythonLiteral(v, indent + 1, face, `${path}[${i}]`)},`);
    return `[\n${items.join('\n')}\n${end}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const lines: string[] = [];
    for (const [key, v] of entries) {
      const childPath = path ? `${path}.${key}` : key;
      const replaced = face?.(childPath);
      if (replaced) {
        for (const c of replaced.comment.split('\n')) lines.push(`${pad}# ${c}`);
        lines.push(`${pad}${JSON.stringify(key)}: ${replaced.expr},`);
      } else {
        lines.push(`${pad}${JSON.stringify(key)}: ${pythonLiteral(v, indent + 1, face, childPath)},`);
      }
    }
    return `{\n${lines.join('\n')}\n${end}}`;
  }
  return 'None';
}

/** Keys of the meshing job's config that the client sets itself. */
const MESH_JOB_KEYS = new Set(['analysisType', 'meshingOnly']);

/** The Python file reproducing the set-up. */
export function pythonScript(setup: ScriptSetup): string {
  const lists = faceListsOf(setup);
  const byPath = new Map(lists.map((l) => [l.path, l]));
  const anyById = lists.some((l) => l.byPatch === null);
  const meshOptions = Object.fromEntries(
    Object.entries(setup.meshConfig).filter(([k, v]) => !MESH_JOB_KEYS.has(k) && v !== undefined),
  );
  const unitsArg = setup.unitsEditable ? `units=${JSON.stringify(setup.units)}` : 'units=None';
  const config = pythonLiteral(setup.config, 0, (path) => {
    const list = byPath.get(path);
    return list ? { comment: faceComment(list), expr: faceExpression(list) } : undefined;
  });
  const out: string[] = [];
  out.push(
    `"""Fieldline set-up exported from the environment: ${oneLine(setup.fileName)} (${setup.config.analysisType}).`,
    '',
    `    FIELDLINE_URL=… FIELDLINE_TOKEN=fl_… python this_script.py [${oneLine(setup.fileName)}]`,
    '',
    'Needs the Python client: pip install fieldline-client (clients/python in the Fieldline repository); a token',
    'with scope "run" from the dashboard (API tokens). Point MODEL_FILE (or the first argument) at your copy of',
    'the model.',
    '"""',
    '',
    'import json',
    'import os',
    'import sys',
    '',
    'import numpy as np',
    '',
    'from fieldline import Client, FieldlineError',
    'from fieldline.client import mesh_from_results',
    '',
    `MODEL_FILE = sys.argv[1] if len(sys.argv) > 1 else ${JSON.stringify(setup.fileName)}`,
    '',
    "# The environment's meshing job: its mesh is the one the face ids below were picked on. The script runs on",
    '# it while it is on the server (same account); FIELDLINE_REMESH=1, or a mesh that is gone, meshes MODEL_FILE',
    '# again with MESH_OPTIONS.',
    `MESH_JOB = ${setup.meshJobId ? JSON.stringify(setup.meshJobId) : 'None'}`,
    '',
    "# The meshing options the environment meshed with (its Generate Volume Mesh job's config keys).",
    `MESH_OPTIONS = ${pythonLiteral(meshOptions)}`,
    '',
  );
  out.push(...facePolicyComment(lists.length, anyById, setup.surfaceTriangles));
  out.push(
    '',
    '',
    'def environment_mesh(fl: Client):',
    '    """The environment\'s volume mesh, or None when it is not on the server any more (or not wanted)."""',
    '    if not MESH_JOB or os.environ.get("FIELDLINE_REMESH"):',
    '        return None',
    '    try:',
    '        results = fl.job(MESH_JOB).status().get("results")',
    '    except FieldlineError:',
    '        return None',
    '    if not isinstance(results, dict) or not results.get("tetrahedra"):',
    '        return None',
    '    return mesh_from_results(MESH_JOB, results)',
    '',
    '',
    'with Client() as fl:',
    '    mesh = environment_mesh(fl)',
    '    if mesh is None:',
    `        part = fl.upload(MODEL_FILE, ${unitsArg})${setup.unitsEditable ? '' : '  # the units come from the file'}`,
    '        mesh = fl.mesh(part, **MESH_OPTIONS)',
    '    print(f"mesh: {len(mesh.vertices)} vertices, {len(mesh.tetrahedra)} tetrahedra (job {mesh.job_id})", file=sys.stderr)',
  );
  if (anyById && setup.surfaceTriangles !== undefined) {
    out.push(
      `    if mesh.job_id != MESH_JOB and len(mesh.triangles) != ${setup.surfaceTriangles}:`,
      '        sys.exit(',
      `            f"the mesh has {len(mesh.triangles)} surface triangles, the environment's had ${setup.surfaceTriangles}: "`,
      '            "face ids given by number would name other faces (a different model file or mesh options?)"',
      '        )',
    );
  }
  if (lists.some((l) => l.byPatch !== null)) {
    out.push(
      '',
      '    def faces_of(*patches: int) -> list[int]:',
      '        """The face ids of whole CAD faces (face_patches numbers) on this mesh."""',
      '        return sorted(i for p in patches for i in mesh.faces_of_patch(p))',
    );
  }
  out.push(
    '',
    `    config = ${indentBlock(config, 1)}`,
    '    job = fl.run(mesh, config)',
    '    results = job.results()',
    '',
  );
  out.push(
    'print(f"job {job.id}", file=sys.stderr)',
    'for name, value in results.quantities.items():',
    '    print(f"{name}: {value}", file=sys.stderr)',
  );
  if (setup.fields.length > 0) {
    out.push(`# The result fields the environment showed (docs/multiphysics.md §1 catalogue names).`);
    out.push(`for name in ${pythonLiteral(setup.fields)}:`);
    out.push(
      '    if name not in results.fields:',
      '        print(f"{name}: not in these results", file=sys.stderr)',
      '        continue',
      '    values = np.abs(results.fields[name])',
      '    if values.ndim > 1:',
      '        values = np.linalg.norm(values, axis=1)',
      '    unit = results.field_info[name].unit if name in results.field_info else None',
      '    print(f"{name}: {values.size} values, min {values.min():.6g} max {values.max():.6g} {unit or \'\'}", file=sys.stderr)',
    );
  }
  out.push(
    'summary = {"job_id": job.id, "quantities": results.quantities}',
    'if results.s_parameters:',
    '    s = results.s_matrix()',
    '    summary["frequencies_Hz"] = results.frequencies.tolist()',
    '    summary["s_parameters"] = {',
    '        f"S{i + 1}{j + 1}": {"re": s[:, i, j].real.tolist(), "im": s[:, i, j].imag.tolist()}',
    '        for i in range(s.shape[1])',
    '        for j in range(s.shape[2])',
    '    }',
    'print(json.dumps(summary, default=float))',
    '',
  );
  return out.join('\n');
}

function facePolicyComment(count: number, anyById: boolean, triangles: number | undefined): string[] {
  if (count === 0) return ['# This set-up names no faces.'];
  const lines = [
    "# Faces: the config names surface triangles of the environment's mesh by id (1-based, as the face picker).",
    '# A face list that is whole CAD faces is rebuilt here from those CAD faces (faces_of, through',
    '# mesh.faces_of_patch), so it holds on a new mesh of the model too.',
    "# A new mesh is not the environment's: the server's volume meshing is not repeatable (the same upload and",
    '# options can give another triangulation), so its results agree to the discretisation, not to round-off.',
  ];
  if (anyById) {
    lines.push(
      "# Lists that are not whole CAD faces keep their ids: they hold on the environment's mesh; on a new one only",
      `# if it has the same triangles in the same order${triangles !== undefined ? ` (checked by the triangle count, ${triangles})` : ''}.`,
    );
  }
  return lines;
}

function faceComment(list: FaceListSource): string {
  const where = list.patches.length
    ? list.patches.map((p) => `${p.body ? `${p.body}, ` : ''}CAD face ${p.patch}`).join('; ')
    : 'CAD faces unknown';
  const how = list.byPatch ? 'whole CAD faces' : 'by id';
  return `${list.ids.length} face${list.ids.length === 1 ? '' : 's'} (${how}): ${where}`;
}

function faceExpression(list: FaceListSource): string {
  if (list.byPatch) return `faces_of(${list.byPatch.join(', ')})`;
  return pythonLiteral(list.ids);
}

function indentBlock(text: string, levels: number): string {
  const pad = '    '.repeat(levels);
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? line : pad + line))
    .join('\n');
}

function oneLine(s: string): string {
  return s.replace(/[\r\n"\\]/g, ' ');
}
