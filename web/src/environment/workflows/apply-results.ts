import { isRecord } from '../../api/http.ts';
import { summarizeCatalogue, type ViewerPayload } from '../../results-format/index.ts';
import { isLengthUnit } from '../api/convert-step.ts';
import { fromBackendConfig, restoreNotice } from '../config/from-backend-config.ts';
import { processResults, RESULT_MESSAGES, ResultsError } from '../results/process-results.ts';
import { type BodyState, hasVolumeMesh, type LengthUnit, type UiError } from '../state/environment-state.ts';
import { resultsToViewer } from '../viewer-bridge/to-viewer-payload.ts';
import type { WorkflowDeps } from './deps.ts';

/**
 * Shows completed results: panels, raw JSON and the viewer. Returns the error shown, if any.
 * `fromFile` results also become the loaded model, so the analysis can be run again on their mesh.
 */
export function applyResults(
  raw: unknown,
  deps: Pick<WorkflowDeps, 'store' | 'viewer'>,
  options: {
    fromFile?: { fileName: string };
    /** a results file the user loaded: put its run settings back into the form */
    restoreForm?: boolean;
    activeBody?: number;
    payload?: ViewerPayload;
  } = {},
): UiError | null {
  const { store, viewer } = deps;
  let processed: ReturnType<typeof processResults>;
  try {
    processed = processResults(raw, options.activeBody ?? 0);
  } catch (err) {
    const title = err instanceof ResultsError ? err.message : RESULT_MESSAGES.processingFailed;
    const error: UiError = options.fromFile ? { title: `Failed to load FEA results: ${title}` } : { title };
    store.set((s) => ({ rawResults: raw, analysis: { ...s.analysis, status: 'failed', error } }));
    return error;
  }
  const active = processed.active;
  store.set((s) => {
    const next: Partial<typeof s> = {
      rawResults: raw,
      results: processed,
      analysis: { ...s.analysis, status: 'completed', progress: 100, error: undefined },
    };
    if (options.fromFile) {
      next.model = {
        fileName: options.fromFile.fileName,
        format: 'json',
        unitsEditable: false,
        mesh: {
          vertices: (active.vertices as [number, number, number][]) ?? [],
          faces: (active.faces as number[][]) ?? [],
          tetrahedra: Array.isArray(active.tetrahedra) ? (active.tetrahedra as number[][]) : undefined,
          tetrahedron_regions: Array.isArray(active.tetrahedron_regions)
            ? (active.tetrahedron_regions as number[])
            : undefined,
          region_names: Array.isArray(active.region_names) ? (active.region_names as string[]) : undefined,
          units: resultsLengthUnit(active),
        },
      };
      next.bodies = regionBodies(active);
    }
    return next;
  });
  if (options.restoreForm && options.fromFile && processed.analysisConfig)
    restoreForm(processed.analysisConfig, options.fromFile, deps);
  try {
    const visible = store.get().bodies.map((b) => b.visible);
    const payload = options.payload ?? resultsToViewer(active, visible);
    store.set({ catalogue: summarizeCatalogue(payload) });
    viewer.loadMesh(payload);
  } catch {
    const error = { title: RESULT_MESSAGES.processingFailed };
    store.set((s) => ({ analysis: { ...s.analysis, error } }));
    return error;
  }
  return null;
}

/**
 * A results file that says how it was computed puts those settings back into the form, so the same run can
 * be read and started again; it needs a volume mesh to run on (the results' own mesh, when they carry one).
 */
function restoreForm(
  config: Record<string, unknown>,
  file: { fileName: string },
  deps: Pick<WorkflowDeps, 'store'>,
): void {
  if (!hasVolumeMesh(deps.store.get().model)) return;
  const { form, reset } = fromBackendConfig(config);
  deps.store.set({ form, formRestore: { fileName: file.fileName, notice: restoreNotice(reset) } });
}

function regionBodies(active: Record<string, unknown>): BodyState[] {
  const names = Array.isArray(active.region_names) ? active.region_names : [];
  if (names.length < 2) return [];
  return names.map((n, i) => ({
    region: i,
    name: typeof n === 'string' ? n : `Body ${i + 1}`,
    visible: true,
  }));
}

/** Switches the shown body of multi-body results. */
export function showResultBody(index: number, deps: Pick<WorkflowDeps, 'store' | 'viewer'>): void {
  const raw = deps.store.get().rawResults;
  if (isRecord(raw)) applyResults(raw, deps, { activeBody: index });
}

/**
 * The engine writes the mesh's unit as `length_unit` (`units` is an object of field units there). Keeping
 * it matters: a re-uploaded results file can be run again, and the engine scales the mesh by this unit.
 */
function resultsLengthUnit(results: Record<string, unknown>): LengthUnit | undefined {
  if (isLengthUnit(results.length_unit)) return results.length_unit;
  return isLengthUnit(results.units) ? results.units : undefined;
}
