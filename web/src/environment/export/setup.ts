/**
 * What an export needs from the environment: the two configs as submitted, the model's name and units, and
 * per surface triangle its CAD face and body, so face lists can be said (and rebuilt) by CAD face.
 */
import { toBackendConfig } from '../config/to-backend-config.ts';
import { type EnvironmentState, hasVolumeMesh } from '../state/environment-state.ts';

export interface ScriptSetup {
  fileName: string;
  units: string;
  /** STL/OBJ: the units are the user's choice and are sent with the upload; STEP carries its own */
  unitsEditable: boolean;
  /** the Generate Volume Mesh job's config (toBackendConfig, purpose meshing) */
  meshConfig: Record<string, unknown>;
  /** the Run Analysis config (toBackendConfig), exactly as submitted */
  config: Record<string, unknown>;
  /** per surface triangle of the environment's mesh: its CAD face (face_patches) */
  facePatches?: readonly number[];
  /** per surface triangle: the body (region) it bounds, when the mesh says */
  faceRegions?: readonly number[];
  bodies: readonly { region: number; name: string }[];
  surfaceTriangles?: number;
  /** the environment's meshing job: its mesh is the one the config's face ids refer to */
  meshJobId?: string;
  /** catalogue names of the result fields the environment shows */
  fields: readonly string[];
}

export interface FaceListSource {
  /** where in the config, e.g. `fixedSupports[0].faces` */
  path: string;
  ids: number[];
  /** the CAD faces it touches, each with its body's name when known */
  patches: { patch: number; body?: string }[];
  /** the CAD faces it is exactly the union of, or null when it is not whole CAD faces */
  byPatch: number[] | null;
}

// Face lists are `faces`/`…Faces`, and a winding's or conductor's `terminals.in` / `terminals.out`.
const isFaceKey = (key: string, parent: string) =>
  key === 'faces' || key.endsWith('Faces') || (parent === 'terminals' && (key === 'in' || key === 'out'));
const isIdList = (v: unknown): v is number[] =>
  Array.isArray(v) && v.length > 0 && v.every((x) => Number.isInteger(x) && x > 0);

/** Every face list in the config (1-based triangle ids under a face-list key), described. */
export function faceListsOf(setup: ScriptSetup): FaceListSource[] {
  const out: FaceListSource[] = [];
  const patches = setup.facePatches;
  const members = new Map<number, number[]>();
  if (patches) {
    for (const [i, p] of patches.entries()) {
      const list = members.get(p);
      if (list) list.push(i + 1);
      else members.set(p, [i + 1]);
    }
  }
  const bodyName = (triangle: number): string | undefined => {
    if (setup.bodies.length === 1) return setup.bodies[0]?.name;
    const region = setup.faceRegions?.[triangle - 1];
    return region === undefined ? undefined : setup.bodies.find((b) => b.region === region)?.name;
  };
  const visit = (value: unknown, path: string, parent = '') => {
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) visit(v, `${path}[${i}]`);
      return;
    }
    if (!value || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const childPath = path ? `${path}.${key}` : key;
      if (isFaceKey(key, parent) && isIdList(v)) out.push(describe(childPath, v));
      else visit(v, childPath, key);
    }
  };
  const describe = (path: string, ids: number[]): FaceListSource => {
    if (!patches || ids.some((id) => id > patches.length)) return { path, ids, patches: [], byPatch: null };
    const seen = new Map<number, string | undefined>();
    for (const id of ids) {
      const p = patches[id - 1] as number;
      if (!seen.has(p)) seen.set(p, bodyName(id));
    }
    const list = [...seen.keys()].sort((a, b) => a - b);
    const idSet = new Set(ids);
    const whole =
      idSet.size === ids.length &&
      list.reduce((n, p) => n + (members.get(p)?.length ?? 0), 0) === idSet.size &&
      list.every((p) => (members.get(p) ?? []).every((id) => idSet.has(id)));
    return {
      path,
      ids,
      patches: list.map((patch) => ({ patch, body: seen.get(patch) })),
      byPatch: whole ? list : null,
    };
  };
  visit(setup.config, '');
  return out;
}

/** The set-up on screen, or null when there is nothing to run (no model or no volume mesh). */
export function setupFromState(state: EnvironmentState): ScriptSetup | null {
  const model = state.model;
  if (!model || !hasVolumeMesh(model)) return null;
  const faces = model.mesh.faces ?? [];
  const regions = faces.every((f) => f.length >= 4) ? faces.map((f) => f[3] as number) : undefined;
  return {
    fileName: model.fileName,
    units: String(model.mesh.units ?? 'mm'),
    unitsEditable: model.unitsEditable,
    meshConfig: toBackendConfig(state.form, {
      purpose: 'meshing',
      bodies: state.bodies,
      meshing: state.meshing.options,
    }) as Record<string, unknown>,
    config: toBackendConfig(state.form, { bodies: state.bodies }) as Record<string, unknown>,
    facePatches: model.facePatches?.length === faces.length ? model.facePatches : undefined,
    faceRegions: regions,
    bodies: state.bodies,
    surfaceTriangles: faces.length,
    meshJobId: state.meshing.status === 'completed' ? state.meshing.jobId : undefined,
    fields: state.catalogue?.fields.map((f) => f.name) ?? [],
  };
}
