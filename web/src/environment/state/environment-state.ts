import type { LENGTH_UNITS, MeshData } from '@fieldline/contracts';
import type { CatalogueSummary } from '../../results-format/index.ts';
import type { AnalysisForm, FaceListKey } from '../config/analysis-form.ts';
import { COMMON_MODEL_BOUND } from '../config/common/common-config.ts';
import { defaultAnalysisForm } from '../config/form-defaults.ts';
import type { MeshingOptions } from '../config/to-backend-config.ts';
import { families } from '../families/registry.ts';
import type { ProblemMarkersPayload } from '../meshing/problem-markers.ts';
import type { MeshSlivers } from '../meshing/slivers.ts';
import type { ProcessedResults } from '../results/process-results.ts';
import { createStore, type Store } from './store.ts';

export type LengthUnit = (typeof LENGTH_UNITS)[number];
export type SourceFormat = 'json' | 'step' | 'stp' | 'stl' | 'obj' | 'zip';

/** A user-facing error: an exact spec message as the title, the server's detail below it. */
export interface UiError {
  title: string;
  detail?: string;
  notice?: string;
}

export interface LoadedModel {
  fileName: string;
  format: SourceFormat;
  mesh: MeshData;
  /** STL/OBJ carry no unit: the user picks one before meshing */
  unitsEditable: boolean;
  boundingBox?: { min: [number, number, number]; max: [number, number, number] };
  uploadId?: string;
  /** per surface triangle: the CAD face it belongs to, so a click can pick a whole face */
  facePatches?: number[];
  repairs?: string[];
}

export interface BodyState {
  region: number;
  name: string;
  visible: boolean;
}

export type MeshingStatus = 'idle' | 'submitting' | 'meshing' | 'completed' | 'failed';
export type AnalysisStatus = 'idle' | 'submitting' | 'running' | 'completed' | 'failed';

export interface MeshQuality {
  [key: string]: unknown;
}

export interface EnvironmentState {
  loading: boolean;
  uploadError: UiError | null;
  model: LoadedModel | null;
  bodies: BodyState[];
  meshing: {
    status: MeshingStatus;
    progress: number;
    jobId?: string;
    message?: string;
    error?: UiError;
    notice?: string;
    quality?: MeshQuality;
    problemMarkers?: ProblemMarkersPayload;
    /** slivers the volume mesh kept (engine geometry/slivers.py) */
    slivers?: MeshSlivers;
    options: MeshingOptions;
  };
  analysis: {
    status: AnalysisStatus;
    progress: number;
    jobId?: string;
    message?: string;
    error?: UiError;
    notice?: string;
  };
  /** the results JSON exactly as received (raw JSON drawer, downloads, re-upload) */
  rawResults: unknown;
  results: ProcessedResults | null;
  /** the named fields the viewer shows (docs/multiphysics.md §1): what the field controls offer */
  catalogue: CatalogueSummary | null;
  form: AnalysisForm;
  /** set when a loaded results file's run settings were put back into the form */
  formRestore: FormRestore | null;
  /** the Dirichlet/port/boundary row that viewer clicks add faces to */
  pickTarget: PickTarget | null;
  /** the last Sweep pressed beside a form input: the study card adds its config path (studies/sweep-action.tsx) */
  studySweep?: StudySweepRequest | null;
}

export interface StudySweepRequest {
  /** counts the presses, so pressing the same Sweep again is a new request */
  seq: number;
  /** the config number the input sets, as a study names it (`forceLoads[0].force[2]`); null when none */
  path: string | null;
  /** what the card says: other numbers the input also sets, or why it cannot be swept */
  note?: string;
}

export interface FormRestore {
  fileName: string;
  /** the unreadable settings that were reset to defaults, said to the user */
  notice: string | null;
}

export interface PickTarget {
  /** the form's face list being picked into (a family's face list, families/<id>/index.ts faceLists) */
  list: FaceListKey;
  key: string;
}

export function initialEnvironmentState(): EnvironmentState {
  return {
    loading: false,
    uploadError: null,
    model: null,
    bodies: [],
    meshing: { status: 'idle', progress: 0, options: {} },
    analysis: { status: 'idle', progress: 0 },
    rawResults: null,
    results: null,
    catalogue: null,
    form: defaultAnalysisForm(),
    formRestore: null,
    pickTarget: null,
  };
}

export type EnvironmentStore = Store<EnvironmentState>;

export function createEnvironmentStore(): EnvironmentStore {
  const store = createStore(initialEnvironmentState());
  clearRefusalOnEdit(store);
  return store;
}

/**
 * A run refused before any job existed (a check or the server's 400 on the configuration) is about the form:
 * the first edit of the form takes the error away (qa31: "The model has no supports" stayed on screen after a
 * support had been added). A failed job keeps its error: it has results and a job id to reopen.
 */
export function clearRefusalOnEdit(store: EnvironmentStore): () => void {
  let form = store.get().form;
  return store.subscribe(() => {
    const s = store.get();
    if (s.form === form) return;
    form = s.form;
    if (s.analysis.status === 'failed' && !s.analysis.jobId && s.analysis.error)
      store.set({ analysis: { ...s.analysis, status: 'idle', error: undefined } });
  });
}

/**
 * Uploading clears all prior data (spec 001 §4). The form keeps its settings (frequency, solver, …)
 * but drops everything that names faces, nodes or bodies of the old model, and its materials go back to the
 * defaults (qa29: copper filled in from the library for one part made the next upload, a waveguide, solid
 * copper).
 */
export function clearedState(state: EnvironmentState): EnvironmentState {
  const defaults = defaultAnalysisForm();
  // every family's model-bound fields, not only the chosen one's (a new part's face 3 is another face)
  const bound = [...COMMON_MODEL_BOUND, ...families().flatMap((f) => f.modelBound)];
  const form = { ...state.form, ...Object.fromEntries(bound.map((k) => [k, defaults[k]])) } as AnalysisForm;
  return { ...initialEnvironmentState(), form };
}

export function hasVolumeMesh(model: LoadedModel | null): boolean {
  if (!model) return false;
  if ((model.mesh.tetrahedra?.length ?? 0) > 0) return true;
  return (model.mesh.meshes ?? []).some((m) => (m.tetrahedra?.length ?? 0) > 0);
}
