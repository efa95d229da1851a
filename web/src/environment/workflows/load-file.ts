import { MeshData } from '@fieldline/contracts';
import { type ConvertedModel, isLengthUnit } from '../api/convert-step.ts';
import {
  type BodyState,
  clearedState,
  type LengthUnit,
  type LoadedModel,
  type SourceFormat,
} from '../state/environment-state.ts';
import {
  failedToLoadMessage,
  fileExtension,
  readFileText,
  sourceFormatOf,
  UNITLESS_FORMATS,
  unsupportedFileTypeMessage,
} from '../upload/file-kind.ts';
import { checkResultsFile, isResultsJson } from '../upload/results-file.ts';
import { applyResults } from './apply-results.ts';
import type { WorkflowDeps } from './deps.ts';
import { showModel } from './show-model.ts';

/**
 * Upload (spec 001 §4/§5): clears all prior data, then loads results JSON as completed results,
 * other JSON as mesh data, and CAD/mesh files through /api/convert-step.
 */
export async function loadFile(file: File, deps: WorkflowDeps): Promise<void> {
  const { store, viewer } = deps;
  const wasPicking = store.get().pickTarget !== null;
  store.set(clearedState(store.get()));
  viewer.call('clearData');
  if (wasPicking) viewer.call('setFacePicking', false);
  const format = sourceFormatOf(file.name);
  if (!format) {
    store.set({ uploadError: { title: unsupportedFileTypeMessage(fileExtension(file.name) || file.name) } });
    return;
  }
  store.set({ loading: true });
  try {
    if (format === 'json') await loadJson(file, deps);
    else loadConverted(file.name, format, await deps.convert(file), deps);
  } catch (err) {
    store.set({
      uploadError: { title: failedToLoadMessage(err instanceof Error ? err.message : String(err)) },
    });
  } finally {
    store.set({ loading: false });
  }
}

async function loadJson(file: File, deps: WorkflowDeps): Promise<void> {
  const json: unknown = JSON.parse(await readFileText(file));
  if (isResultsJson(json)) {
    const problem = checkResultsFile(json);
    if (problem) {
      deps.store.set({ uploadError: { title: problem } });
      return;
    }
    const error = applyResults(json, deps, { fromFile: { fileName: file.name }, restoreForm: true });
    if (error) deps.store.set({ uploadError: error });
    return;
  }
  const parsed = MeshData.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `Invalid mesh data: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`,
    );
  }
  setModel({ fileName: file.name, format: 'json', mesh: parsed.data, unitsEditable: false }, deps);
}

function loadConverted(
  fileName: string,
  format: SourceFormat,
  data: ConvertedModel,
  deps: WorkflowDeps,
): void {
  const unitsEditable = UNITLESS_FORMATS.includes(format) || (format === 'zip' && isUnitless(data));
  const mesh = MeshData.parse({
    vertices: data.vertices ?? [],
    faces: data.faces ?? [],
    meshes: data.meshes,
    mesh_count: data.mesh_count,
    format: data.format,
    units: isLengthUnit(data.units) ? data.units : 'mm',
    source_upload_id: data.upload_id,
  });
  setModel(
    {
      fileName,
      format,
      mesh,
      unitsEditable,
      boundingBox: data.bounding_box,
      uploadId: data.upload_id,
      facePatches: data.face_patches,
      repairs: data.repairs,
    },
    deps,
  );
}

function isUnitless(data: ConvertedModel): boolean {
  const source = data.source_format;
  return typeof source === 'string' && ['stl', 'obj'].includes(source.toLowerCase());
}

export function bodiesOf(mesh: LoadedModel['mesh']): BodyState[] {
  if (mesh.meshes && mesh.meshes.length > 0) {
    return mesh.meshes.map((m, i) => ({ region: i, name: m.name || `Body ${i + 1}`, visible: true }));
  }
  const names = mesh.region_names ?? [];
  return names.length > 1 ? names.map((name, i) => ({ region: i, name, visible: true })) : [];
}

export function setModel(model: LoadedModel, deps: Pick<WorkflowDeps, 'store' | 'viewer'>): void {
  deps.store.set({ model, bodies: bodiesOf(model.mesh) });
  showModel(deps.store.get(), deps.viewer);
}

/** STL/OBJ carry no unit: the user's choice is stored with the mesh before meshing. */
export function setModelUnits(unit: LengthUnit, deps: Pick<WorkflowDeps, 'store' | 'viewer'>): void {
  const model = deps.store.get().model;
  if (!model?.unitsEditable) return;
  deps.store.set({ model: { ...model, mesh: { ...model.mesh, units: unit } } });
  showModel(deps.store.get(), deps.viewer);
}

export function isMultiBodyModel(model: LoadedModel | null): boolean {
  if (!model) return false;
  const m = model.mesh;
  return m.format === 'multi-body' || (m.meshes?.length ?? 0) > 1 || (m.region_names?.length ?? 0) > 1;
}
