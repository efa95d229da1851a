import { errorText, isRecord } from '../../api/http.ts';
import { toBackendConfig } from '../config/to-backend-config.ts';
import { MESHING_POLLING, pollJob } from '../jobs/job-polling.ts';
import { rewriteServerError } from '../jobs/server-error.ts';
import { AbortedError } from '../jobs/sleep.ts';
import { diagnosticLines, parseProblemMarkers, problemAreasMessage } from '../meshing/problem-markers.ts';
import { parseSlivers } from '../meshing/slivers.ts';
import type { EnvironmentState, UiError } from '../state/environment-state.ts';
import { problemMarkersToViewer } from '../viewer-bridge/to-viewer-payload.ts';
import type { WorkflowDeps } from './deps.ts';
import { showModel } from './show-model.ts';

/** Spec 001 §8 meshing messages and the §2 status text after a failure. */
export const MESHING_MESSAGES = {
  failed: 'Tetrahedralization failed',
  noTetrahedra: 'Backend returned no tetrahedra – cannot visualise volume mesh',
  pollingFailed: 'Tetrahedralization polling failed',
  timedOut: 'Tetrahedralization timed out',
  automaticFailed: 'Automatic tetrahedralization failed',
  statusAfterFailure: 'Mesh generation failed - check geometry',
} as const;

type Meshing = EnvironmentState['meshing'];
const patchMeshing = (deps: WorkflowDeps, patch: Partial<Meshing>) =>
  deps.store.set((s) => ({ meshing: { ...s.meshing, ...patch } }));

/** The meshed model inside a completed meshing job's results. */
function volumeMeshOf(results: unknown): Record<string, unknown> | null {
  if (!isRecord(results)) return null;
  const inner = isRecord(results.mesh_data)
    ? results.mesh_data
    : isRecord(results.mesh)
      ? results.mesh
      : results;
  return inner;
}

/**
 * Generate Volume Mesh: a tetra-only job with meshingOnly (spec 001 §7), polled every 2 s up to 60
 * attempts with 5 poll errors tolerated. Returns true when a volume mesh was loaded.
 */
export async function generateVolumeMesh(deps: WorkflowDeps, signal?: AbortSignal): Promise<boolean> {
  const { store, api } = deps;
  const state = store.get();
  const model = state.model;
  if (!model) return false;
  patchMeshing(deps, {
    status: 'submitting',
    progress: 0,
    error: undefined,
    notice: undefined,
    quality: undefined,
    problemMarkers: undefined,
    slivers: undefined,
    jobId: undefined,
    message: undefined,
  });
  const config = toBackendConfig(state.form, {
    purpose: 'meshing',
    bodies: state.bodies,
    meshing: state.meshing.options,
  });
  const mesh_data = { ...model.mesh, tetrahedra: undefined, source_upload_id: model.uploadId };
  let jobId: string;
  try {
    const res = await api.submit({ mesh_data, config });
    const json = isRecord(res.json) ? res.json : {};
    if (!res.ok || json.status === 'error' || typeof json.job_id !== 'string') {
      const detail = rewriteServerError(errorText(res.json), res.status);
      return fail(deps, { title: MESHING_MESSAGES.automaticFailed, detail });
    }
    jobId = json.job_id;
  } catch (err) {
    return fail(deps, { title: MESHING_MESSAGES.automaticFailed, detail: (err as Error).message });
  }
  patchMeshing(deps, { status: 'meshing', jobId, progress: 0 });
  try {
    const end = await pollJob(MESHING_POLLING, {
      fetchStatus: () => api.status(jobId),
      onProgress: (progress, message) => patchMeshing(deps, { progress, message }),
      signal,
      wait: deps.wait,
    });
    switch (end.kind) {
      case 'completed':
        return loadVolumeMesh(deps, end.body.results);
      case 'failed': {
        const detail = rewriteServerError(end.body.error ?? end.body.message, 200);
        fail(deps, { title: MESHING_MESSAGES.failed, detail });
        await showProblemMarkers(deps, jobId);
        return false;
      }
      case 'cancelled':
        patchMeshing(deps, { status: 'idle', progress: 0, notice: 'Meshing cancelled.' });
        return false;
      case 'timeout':
        return fail(deps, { title: MESHING_MESSAGES.timedOut });
      case 'too-many-errors':
        return fail(deps, { title: MESHING_MESSAGES.pollingFailed, detail: end.detail });
    }
  } catch (err) {
    if (err instanceof AbortedError) {
      patchMeshing(deps, { status: 'idle', progress: 0, notice: 'Meshing cancelled.' });
      // Stopping the watch alone would leave the mesher running on the server: ask it to stop too.
      await api.cancel(jobId).catch(() => undefined);
      return false;
    }
    return fail(deps, { title: MESHING_MESSAGES.automaticFailed, detail: (err as Error).message });
  }
}

function fail(deps: WorkflowDeps, error: UiError): false {
  patchMeshing(deps, { status: 'failed', error, message: MESHING_MESSAGES.statusAfterFailure });
  return false;
}

function loadVolumeMesh(deps: WorkflowDeps, results: unknown): boolean {
  const volume = volumeMeshOf(results);
  const tets = volume && Array.isArray(volume.tetrahedra) ? (volume.tetrahedra as number[][]) : [];
  if (!volume || tets.length === 0) return fail(deps, { title: MESHING_MESSAGES.noTetrahedra });
  const { store } = deps;
  const model = store.get().model;
  if (!model) return false;
  const regions = Array.isArray(volume.region_names) ? (volume.region_names as string[]) : undefined;
  store.set((s) => ({
    model: {
      ...model,
      facePatches: Array.isArray(volume.face_patches) ? (volume.face_patches as number[]) : undefined,
      mesh: {
        vertices: (volume.vertices as [number, number, number][]) ?? [],
        faces: (volume.faces as number[][]) ?? [],
        tetrahedra: tets,
        tetrahedron_regions: Array.isArray(volume.tetrahedron_regions)
          ? (volume.tetrahedron_regions as number[])
          : undefined,
        region_names: regions,
        units: model.mesh.units,
        source_upload_id: model.uploadId,
      },
    },
    bodies:
      regions && regions.length > 1 && s.bodies.length !== regions.length
        ? regions.map((name, i) => ({ region: i, name, visible: true }))
        : s.bodies,
    meshing: {
      ...s.meshing,
      status: 'completed',
      progress: 100,
      quality: qualityOf(results),
      slivers: parseSlivers(results),
      message: undefined,
    },
  }));
  showModel(store.get(), deps.viewer);
  return true;
}

function qualityOf(results: unknown): Record<string, unknown> | undefined {
  if (!isRecord(results)) return undefined;
  const q = results.quality ?? results.mesh_quality ?? results.quality_report;
  return isRecord(q) ? q : undefined;
}

/** After a failure: mark the problem areas when diagnostics exist; otherwise the surface stays. */
export async function showProblemMarkers(deps: WorkflowDeps, jobId?: string): Promise<void> {
  let payload = null;
  try {
    const res = await deps.api.problemMarkers(jobId);
    payload = res.ok ? parseProblemMarkers(res.json) : null;
  } catch {
    payload = null;
  }
  if (!payload) {
    showModel(deps.store.get(), deps.viewer);
    return;
  }
  const notice = problemAreasMessage(payload.mesher);
  deps.viewer.loadMesh(problemMarkersToViewer(payload, diagnosticLines(payload.diagnostics)));
  patchMeshing(deps, { notice, problemMarkers: payload });
}
