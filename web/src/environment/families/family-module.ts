import type {
  AnalysisConfigInput,
  AnalysisType,
  ArrowMark,
  FaceMarkTone,
  MeshData,
} from '@fieldline/contracts';
import type { ComponentType, ReactNode } from 'react';
import type { AnalysisForm, FaceListKey, MeshOrder } from '../config/analysis-form.ts';
import type { ConfigReader } from '../config/common/config-reader.ts';
import type { BodyRef } from '../config/to-backend-config.ts';
import type { ProcessedResults } from '../results/process-results.ts';

/** What a family's mapping to the backend config gets besides the form. */
export interface ToBackendContext {
  /** the model's bodies (multi-body models carry a material each) */
  bodies: readonly BodyRef[];
  /** the analysis type the form runs (the family's own `analysisType(form)`) */
  analysisType: AnalysisType;
}

/** A row of a face list as the face marks read it. */
export interface FaceRow {
  key: string;
  faces: string;
  kind?: string;
  name?: string;
  portID?: string;
}

/** A face list of the family's form: the role its rows play on the model and what the legend calls a row. */
export interface FaceListRole {
  list: FaceListKey;
  toneOf: (row: FaceRow) => FaceMarkTone;
  /** e.g. "Port 2" for a row without a name of its own */
  nameOf: (row: FaceRow, index: number) => string;
}

/** A result quantity adaptive refinement may follow (`adaptiveRefinement.quantity`): its results key and label. */
export interface AdaptiveQuantity {
  value: string;
  label: string;
}

/** A line of the results' "Run settings" summary: a label and what the run used. */
export type RunSettingRow = [label: string, value: string];

/** A result panel of a family: it reads the active result (results.json of the shown body, `result`) or the
 * processed results, and draws nothing when the result has nothing for it. */
export type ResultPanel = (props: {
  result: Record<string, unknown>;
  results: ProcessedResults;
}) => ReactNode;

/**
 * One physics family of the web side, everything the shared code needs from it (docs/multiphysics.md §5).
 * A family's folder, web/src/environment/families/<id>/, exports one of these as the default export of its
 * index.ts; families/registry.ts finds every folder, so the chooser, the form, the mapping to and from the
 * backend config, the face marks, the run settings and the results panel iterate the registry and name no
 * family.
 */
export interface FamilyModule {
  /** `form.physics`, the chooser button's test id (`physics-<id>`), `?physics=<id>` in the URL */
  id: string;
  /** the chooser's label */
  label: string;
  /** place in the chooser, lowest first; the lowest is the form's default family */
  order: number;
  /** one sentence on what the family solves (shown while none of its analysis types is available) */
  blurb: string;
  /** the backend analysis types the family runs, and by which saved results restore to it */
  analysisTypes: readonly AnalysisType[];
  /** the element order choosing the family raises the form to (linear tetrahedra lock in bending) */
  minMeshOrder?: MeshOrder;

  /** the family's own form fields at their defaults (its entry of FamilyForms) */
  defaults: () => object;
  /** the family's form fields that name faces, nodes or bodies of the model: back to defaults on a new upload */
  modelBound: readonly (keyof AnalysisForm)[];
  /** the form's groups, shown under the chooser while the family is chosen */
  Groups: ComponentType;
  /** the face lists the chosen family runs with, marked on the model in their role's colour */
  faceLists: (form: AnalysisForm) => FaceListRole[];
  /** arrows drawn on the model before a run (a coil's current direction), from the form and the model's mesh */
  arrowMarks?: (form: AnalysisForm, mesh: MeshData) => ArrowMark[];

  /** the quantities adaptive refinement may follow in the analysis the form runs (the engine's results keys);
   * null or absent: that analysis has no adaptive refinement (the common group says so) */
  adaptiveQuantities?: (form: AnalysisForm) => readonly AdaptiveQuantity[] | null;
  /** where the analysis the form runs adapts at one frequency (`adaptiveRefinement.frequency`): what a blank
   * field means (its default, shown as the field's placeholder); null or absent: no adaptation frequency */
  adaptiveFrequency?: (form: AnalysisForm) => string | null;

  /** which of its analysis types the form runs */
  analysisType: (form: AnalysisForm) => AnalysisType;
  /** the backend `mode` of one of its analysis types (`form` is absent when only the type is known) */
  mode: (analysisType: string, form?: AnalysisForm) => string;
  /** the family's keys of the backend config of an analysis run (the common keys are set already) */
  toBackend: (form: AnalysisForm, context: ToBackendContext) => Partial<AnalysisConfigInput>;
  /** the family's switches at their off values, sent with another family's run: the engine lists a set switch
   * its analysis does not use in the run's notes */
  idleKeys?: Partial<AnalysisConfigInput>;
  /** the family's form fields back from a saved config (results.json `analysis_config`); an unreadable value
   * keeps its default and is named through `reader` */
  fromBackend: (config: Record<string, unknown>, reader: ConfigReader) => Partial<AnalysisForm>;

  /** "Steady heat conduction (thermal)": the first line of a result's run settings */
  analysisLabel: (config: Record<string, unknown>) => string;
  /** the run settings lines the family adds after the analysis line (mesh order and solver follow) */
  runSettings: (config: Record<string, unknown>) => RunSettingRow[];
  /** the solver table's lines after "Analysis" (solver_info); absent: the frequency when the engine gives one */
  solverRows?: (info: Record<string, unknown>) => RunSettingRow[];
  /** true when one of the family's panels lists the engine's warnings itself (the shared notes then leave them out) */
  listsOwnWarnings?: (info: Record<string, unknown>) => boolean;
  /** the family's panels beside the quantities of a result of one of its analysis types (reactions, heat flows) */
  summaryPanels: readonly ResultPanel[];
  /** the family's panels after the run settings (modes, charts, S-parameters), in order */
  resultPanels: readonly ResultPanel[];
}
