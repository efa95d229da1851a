import type { MeshData } from '@fieldline/contracts';
import { errorText, isRecord } from '../../api/http.ts';
import { toBackendConfig } from '../config/to-backend-config.ts';
import {
  ANALYSIS_POLLING,
  analysisTimeoutMessage,
  GENERIC_WAIT_RULES,
  type PollRules,
  pollingFailedMessage,
  pollJob,
  type StatusBody,
} from '../jobs/job-polling.ts';
import {
  isInvalidSurfaceMessage,
  rewriteServerError,
  SELF_INTERSECTION_NOTICE,
} from '../jobs/server-error.ts';
import { AbortedError } from '../jobs/sleep.ts';
import { jobName, rememberJobName } from '../persistence/job-names.ts';
import { forgetRunningJob, rememberRunningJob, runningJob } from '../persistence/running-job.ts';
import type { EnvironmentState, UiError } from '../state/environment-state.ts';
import { binaryResultsToViewer } from '../viewer-bridge/to-viewer-payload.ts';
import { applyResults } from './apply-results.ts';
import type { WorkflowDeps } from './deps.ts';

/** Spec 001 §5 run checks and §8 analysis messages. */
export const RUN_MESSAGES = {
  noMeshOrConfig: 'No mesh data or configuration available for analysis.',
  noVertices: 'Invalid mesh data: No vertices found.',
  noElements: 'Invalid mesh data: No elements (tetrahedra or faces) found.',
  serverNotResponding: 'FEA server is not responding. Please try again later.',
  submissionFailed: (detail: string) => `Submission failed: ${detail}`,
  failedDefault: 'FEA analysis failed due to invalid geometry or meshing.',
  failed: 'FEA analysis failed.',
  failedToSubmit: 'Failed to submit analysis',
  failedOnServer: 'Analysis failed on server',
  cancelled: 'Analysis cancelled.',
} as const;

/** Checks 1–3 of spec 001 §5, in order; null when the mesh may be submitted. */
export function checkRunInputs(mesh: MeshData | null | undefined, config: object | null): string | null {
  if (!mesh || !config) return RUN_MESSAGES.noMeshOrConfig;
  if (!mesh.vertices || mesh.vertices.length === 0) return RUN_MESSAGES.noVertices;
  if ((mesh.tetrahedra?.length ?? 0) === 0 && (mesh.faces?.length ?? 0) === 0) return RUN_MESSAGES.noElements;
  return null;
}

/** Check 4: GET /api/fea/health answers OK with a working engine. */
export async function healthCheckPasses(api: WorkflowDeps['api']): Promise<boolean> {
  try {
    const res = await api.health();
    return res.ok && isRecord(res.json) && res.json.status === 'ok';
  } catch {
    return false;
  }
}

type Analysis = EnvironmentState['analysis'];
const patchAnalysis = (deps: WorkflowDeps, patch: Partial<Analysis>) =>
  deps.store.set((s) => ({ analysis: { ...s.analysis, ...patch } }));

function fail(deps: WorkflowDeps, error: UiError): void {
  patchAnalysis(deps, { status: 'failed', error });
}

/** Server text → the error shown, with the invalid-surface rewrite and its friendlier notice. */
function serverError(title: string, message: string | undefined, httpStatus: number): UiError {
  const detail = rewriteServerError(message, httpStatus);
  return { title, detail, notice: isInvalidSurfaceMessage(message) ? SELF_INTERSECTION_NOTICE : undefined };
}

/** The results of a completed job; multi-body jobs carry type/success_count/mesh_count beside them. */
function resultsOf(body: StatusBody): unknown {
  if (body.type === 'multi_body' && Array.isArray(body.results)) {
    return {
      type: 'multi_body',
      results: body.results,
      success_count: body.success_count,
      mesh_count: body.mesh_count,
    };
  }
  return body.results;
}

/**
 * The mesh as submitted. An adaptive run also sends each triangle's CAD face: with the STEP upload the server
 * attaches, the engine puts refined surface vertices on those faces (docs/adaptive.md).
 */
function submittedMesh(model: { mesh: MeshData; facePatches?: number[] }, config: Record<string, unknown>) {
  const patches = model.facePatches;
  if (!config.adaptiveRefinement || !patches || patches.length !== model.mesh.faces.length) return model.mesh;
  return { ...model.mesh, face_patches: patches };
}

/** Run Analysis (spec 001 §5, §7, §9): checks, health, sign-in, submit, poll, results. */
export async function runAnalysis(deps: WorkflowDeps, signal?: AbortSignal): Promise<void> {
  const { store, api } = deps;
  const state = store.get();
  const config = state.model ? toBackendConfig(state.form, { bodies: state.bodies }) : null;
  patchAnalysis(deps, { error: undefined, notice: undefined });
  const problem = checkRunInputs(state.model?.mesh, config);
  if (problem || !config || !state.model) {
    fail(deps, { title: problem ?? RUN_MESSAGES.noMeshOrConfig });
    return;
  }
  patchAnalysis(deps, { status: 'submitting', progress: 0, jobId: undefined, message: undefined });
  if (!(await healthCheckPasses(api))) {
    fail(deps, { title: RUN_MESSAGES.serverNotResponding });
    return;
  }
  if (!(await deps.auth.isSignedIn())) {
    patchAnalysis(deps, { status: 'idle' });
    await deps.auth.sendToLogin();
    return;
  }
  let jobId: string;
  try {
    const res = await api.submit({ mesh_data: submittedMesh(state.model, config), config });
    if (res.status === 401) {
      patchAnalysis(deps, { status: 'idle' });
      await deps.auth.sendToLogin();
      return;
    }
    const json = isRecord(res.json) ? res.json : {};
    if (!res.ok || json.status === 'error') {
      const e = serverError('', errorText(res.json), res.status);
      fail(deps, { title: RUN_MESSAGES.submissionFailed(e.detail ?? ''), notice: e.notice });
      return;
    }
    if (typeof json.job_id !== 'string') {
      fail(deps, { title: RUN_MESSAGES.failedToSubmit });
      return;
    }
    jobId = json.job_id;
  } catch (err) {
    fail(deps, { title: RUN_MESSAGES.submissionFailed((err as Error).message) });
    return;
  }
  patchAnalysis(deps, { status: 'running', jobId, progress: 0 });
  rememberRunningJob({ jobId, fileName: state.model.fileName, startedAt: Date.now() });
  rememberJobName(jobId, state.model.fileName);
  await watchAnalysis(deps, jobId, ANALYSIS_POLLING, signal);
}

/** A job reopened after a reload or from Recent Activity that ended without results: its model is not
 * on screen (results bring their mesh; these have none), so say so rather than leave an empty page. */
function noResultsNotice(fileName: string): string {
  return `${fileName} has no results to show; load the model again to run it.`;
}

/** Polls an analysis job to its end and shows the outcome (spec 001 §7/§8 rules). */
async function watchAnalysis(
  deps: WorkflowDeps,
  jobId: string,
  rules: PollRules,
  signal?: AbortSignal,
  resumed?: { fileName: string },
): Promise<void> {
  const { api } = deps;
  try {
    const end = await pollJob(rules, {
      fetchStatus: () => api.status(jobId),
      onProgress: (progress, message) => patchAnalysis(deps, { progress, message }),
      signal,
      wait: deps.wait,
    });
    // "Opening job … / Watching the analysis of …" said what was being waited for; the outcome replaces it
    if (resumed) patchAnalysis(deps, { notice: undefined });
    switch (end.kind) {
      case 'completed': {
        forgetRunningJob();
        const raw = resultsOf(end.body);
        // a job opened from the dashboard or picked up after a reload: its results bring their mesh, and
        // the form comes back from the config it ran with (else the form reads "DC" beside 10 GHz results)
        applyResults(raw, deps, {
          payload: await binaryPayload(deps, jobId, raw),
          fromFile: resumed,
          restoreForm: resumed !== undefined,
        });
        return;
      }
      case 'failed': {
        forgetRunningJob();
        const message = end.body.error ?? end.body.message;
        if (!message) fail(deps, { title: RUN_MESSAGES.failedOnServer, detail: RUN_MESSAGES.failedDefault });
        else fail(deps, serverError(RUN_MESSAGES.failedOnServer, message, 200));
        if (resumed) patchAnalysis(deps, { notice: noResultsNotice(resumed.fileName) });
        return;
      }
      case 'cancelled':
        forgetRunningJob();
        patchAnalysis(deps, {
          status: 'idle',
          progress: 0,
          notice: resumed
            ? `${RUN_MESSAGES.cancelled} ${noResultsNotice(resumed.fileName)}`
            : RUN_MESSAGES.cancelled,
        });
        return;
      case 'timeout':
        fail(deps, { title: analysisTimeoutMessage() });
        return;
      case 'too-many-errors':
        fail(deps, { title: pollingFailedMessage(end.errors, end.detail) });
        return;
    }
  } catch (err) {
    if (err instanceof AbortedError) {
      // Cancel stops the watch of the job on screen; a new upload or Clear Data stops it too, but has already
      // put a new page in its place, where "Analysis cancelled." would be false (qa31: the job had completed)
      if (deps.store.get().analysis.jobId !== jobId) return;
      patchAnalysis(deps, { status: 'idle', progress: 0, notice: RUN_MESSAGES.cancelled });
      return;
    }
    fail(deps, { title: RUN_MESSAGES.failed, detail: (err as Error).message });
  }
}

/**
 * After a reload: picks up the watch of an analysis this tab started, with the generic wait of
 * spec 001 §9 (300 s, every 3 s, 5 consecutive errors); its results bring their own mesh.
 */
export async function resumeAnalysis(deps: WorkflowDeps, signal?: AbortSignal): Promise<boolean> {
  const job = runningJob();
  if (!job) return false;
  patchAnalysis(deps, {
    status: 'running',
    jobId: job.jobId,
    progress: 0,
    notice: `Watching the analysis of ${job.fileName} started before the page reloaded.`,
  });
  await watchAnalysis(deps, job.jobId, GENERIC_WAIT_RULES, signal, { fileName: job.fileName });
  return true;
}

/**
 * Opens one of the user's jobs by id (the dashboard's Recent Activity links to /environment?job=…, and the
 * page keeps the job on screen in that address so a reload comes back to it): watches it to its end with the
 * generic wait, then shows its results and loads their mesh.
 */
export async function openJob(deps: WorkflowDeps, jobId: string, signal?: AbortSignal): Promise<void> {
  const fileName = jobName(jobId) ?? `job ${jobId.slice(0, 8)}`;
  patchAnalysis(deps, {
    status: 'running',
    jobId,
    progress: 0,
    notice: `Opening ${fileName}…`,
  });
  await watchAnalysis(deps, jobId, GENERIC_WAIT_RULES, signal, { fileName });
}

/** Cancel: stop polling here and ask the server to stop the job (POST /api/fea/cancel/{jobId}). */
export async function cancelAnalysis(deps: WorkflowDeps, stopPolling: () => void): Promise<void> {
  const jobId = deps.store.get().analysis.jobId;
  stopPolling();
  forgetRunningJob();
  if (!jobId) return;
  try {
    const res = await deps.api.cancel(jobId);
    if (!res.ok) {
      patchAnalysis(deps, {
        notice: `${RUN_MESSAGES.cancelled} The server could not stop the job (HTTP ${res.status}); it may still finish.`,
      });
    }
  } catch {
    patchAnalysis(deps, {
      notice: `${RUN_MESSAGES.cancelled} The server could not be reached to stop the job.`,
    });
  }
}

/** The viewer gets results.bin when the server has it (large meshes never travel as JSON numbers). */
async function binaryPayload(deps: WorkflowDeps, jobId: string, raw: unknown) {
  if (isRecord(raw) && raw.type === 'multi_body') return undefined;
  const buffer = await deps.api.resultsBinary(jobId);
  if (!buffer) return undefined;
  try {
    return binaryResultsToViewer(
      buffer,
      deps.store.get().bodies.map((b) => b.visible),
    );
  } catch {
    return undefined;
  }
}
