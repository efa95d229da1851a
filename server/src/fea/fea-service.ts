import type {
  DownloadFormat,
  HealthResponse,
  JobStatusResponse,
  MeshData,
  SubmitResponse,
} from '@fieldline/contracts';
import {
  type AnalysisConfig,
  type AnalysisType,
  AVAILABLE_ANALYSIS_TYPES,
  TRANSIENT_TWINS,
} from '@fieldline/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ComputeAccounts } from '../billing/compute-accounts.ts';
import { estimateSeconds } from '../billing/job-estimate.ts';
import type { EngineHealthProbe } from '../engine/engine-health.ts';
import { ZIP_MAX_RATIO } from '../geometry/convert-service.ts';
import type { ProblemMarkersService } from '../geometry/problem-markers.ts';
import { MB } from '../geometry/upload-limits.ts';
import type { UploadService } from '../geometry/upload-service.ts';
import { HttpError } from '../http/errors.ts';
import type { AdmissionLock } from '../jobs/admission-lock.ts';
import type { JobOwner } from '../jobs/job-owner.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { JobRow, JobService } from '../jobs/job-service.ts';
import { type CachedSnapshot, type JobSnapshot, ownsJob } from '../jobs/job-status-cache.ts';
import { lengthOf, type StoredFile } from '../jobs/job-storage.ts';
import { RANKS_FILE, rankRequest } from '../jobs/mpi-ranks.ts';
import type { MaterialLibrary } from '../materials/material-library.ts';
import type { BlobStream } from '../storage/blob-store.ts';
import { refuseFaceIdsOutOfRange } from './face-ids.ts';
import { checkFieldsFrom } from './fields-from-check.ts';
import { meshHash } from './mesh-hash.ts';
import { refuseOverMemory } from './resource-check.ts';
import { type CompletedReplies, type CompressedReply, etagOf, type StatusReply } from './status-replies.ts';
import { firstFlatTetrahedron } from './tet-volumes.ts';

const invalidMesh = (message: string) => new HttpError(400, 'invalid_mesh', message, { status: 'error' });

/** docs/conventions.md: guests may convert and mesh; analyses need an account (and a balance). */
export const ANALYSIS_NEEDS_ACCOUNT =
  'Please log in to run an analysis. Converting and meshing work without an account; new accounts get free tokens to start.';

const FILES_DELETED = (hours: number) =>
  `The results were deleted ${hours} h after the job finished because the job was not saved.`;

/** The analysis a config runs: the Transient switch selects a steady family's time-domain twin. */
export function effectiveAnalysisType(config: AnalysisConfig): AnalysisType {
  return (config.transient && TRANSIENT_TWINS[config.analysisType]) || config.analysisType;
}

/** A family whose solver has not landed yet is refused before anything is stored or charged. */
function refuseUnavailableAnalysis(config: AnalysisConfig): void {
  const type = effectiveAnalysisType(config);
  if (AVAILABLE_ANALYSIS_TYPES.includes(type)) return;
  const available = AVAILABLE_ANALYSIS_TYPES.filter((t) => t !== 'tetra-only').join(', ');
  throw new HttpError(
    400,
    'analysis_unavailable',
    `Analysis type '${type}' is not available yet. Available analysis types: ${available}.`,
    { status: 'error' },
  );
}

/** A job checked and built by `FeaService.prepare`, not yet admitted or stored. */
export interface PreparedJob {
  owner: JobOwner;
  kind: 'meshing' | 'analysis';
  analysisType: string;
  config: AnalysisConfig;
  input: Record<string, unknown>;
  /** the input already serialised (a study point built off the event loop); wins over `input` */
  inputJson?: Buffer;
  estimate: number;
  jobBytes: number;
  /** estimated peak memory of an analysis (null for meshing) */
  memoryBytes: number | null;
  sourceFile: { name: string; body: Buffer } | null;
  /** the analysis mesh's content hash (fea/mesh-hash.ts); null for meshing jobs and study points */
  meshHash?: string | null;
  /** a chained run's checked source and the request file its worker reads (fea/fields-from-check.ts) */
  chained?: { source: JobRow; file: { name: string; body: Buffer } } | null;
}

/** Test-only job input (ENGINE_TEST_HOOKS; engine/fieldline_engine/testing/hooks.py). */
export interface TestHooks {
  sleep_seconds?: number;
  allocate_mb?: number;
}

/** The limits FeaService applies (from the server's configuration). */
export interface FeaLimits {
  /** JOB_MEMORY_LIMIT_MB: an analysis whose estimate is above it is refused at submit. */
  jobMemoryLimitMb: number;
  minEstimateSeconds: number;
  zipMaxExpandedMb: number;
  /** How long unsaved results are kept, named in the "files deleted" replies. */
  retentionHours: number;
}

/** What FeaService works with, built in the composition root (app.ts). */
export interface FeaServiceDeps {
  jobs: JobService;
  queue: JobQueue;
  uploads: UploadService;
  /** Admission (plan, balance, model size) of a user's job and the guest model limit. */
  accounts: Pick<ComputeAccounts, 'admit' | 'checkGuestModel'>;
  materials: MaterialLibrary;
  engineHealth: EngineHealthProbe;
  markers: ProblemMarkersService;
  /** One submit per user at a time between admission and the job row. */
  admission: AdmissionLock;
  /** Completed jobs' status replies, serialised and compressed once. */
  completed: CompletedReplies;
  log: FastifyBaseLogger;
  limits: FeaLimits;
}

/** Submit, status, results, cancel and save: the simulator's job calls (spec 001 §7). */
export class FeaService {
  /** Small replies already built, by the cache entry they were built from (dropped with it). */
  private readonly builtReplies = new WeakMap<CachedSnapshot, StatusReply>();
  /**
   * Jobs whose completed reply is not built as they complete but at their first poll, for jobs that are
   * seldom polled: a design study's points (their outputs are collected from the results by the study, and
   * a point is opened in the viewer one at a time, if at all). Building a reply parses, serialises,
   * compresses twice and seals the results: ≈ 25 ms of CPU per 3,000-tetrahedron point, on the same cores
   * as the study's other points (bench/studies).
   */
  readonly builtOnDemand: ((jobId: string) => Promise<boolean>)[] = [];

  constructor(private readonly deps: FeaServiceDeps) {
    // A job this process ran is serialised and compressed once, as it completes, before anyone polls.
    deps.jobs.onFinished.push((jobId, status) => {
      if (status === 'completed') void this.warm(jobId);
    });
    // A job polled here that another process completed (status feed): its stored reply is loaded into
    // memory as the news arrives, so the next poll is served from it.
    deps.jobs.statusCache.onFed.push((snap) => {
      this.completedReply(snap)?.catch((err) =>
        this.deps.log.debug({ err, jobId: snap.id }, 'could not prepare the completed status reply'),
      );
    });
  }

  async health(): Promise<HealthResponse> {
    const [engine, queue] = await Promise.all([this.deps.engineHealth.get(), this.deps.queue.stats()]);
    return { status: engine.available ? 'ok' : 'degraded', engine, queue };
  }

  async submit(
    owner: JobOwner,
    mesh: MeshData,
    config: AnalysisConfig,
    modelBytes: number,
    testHooks?: TestHooks,
  ): Promise<SubmitResponse> {
    const prepared = await this.prepare(owner, mesh, config, modelBytes, testHooks);
    const { kind, estimate, jobBytes } = prepared;
    const { accounts } = this.deps;
    let job: JobRow;
    if (owner.userId) {
      const userId = owner.userId;
      // Admission and the job row happen under one per-user lock: racing submits cannot both pass.
      job = await this.deps.admission.run(userId, async () => {
        const admission = await accounts.admit(userId, {
          kind,
          estimateSeconds: estimate,
          modelBytes: jobBytes,
        });
        // A plan's concurrent_simulations also caps one job's ranks (docs/billing.md).
        return this.createPrepared(prepared, {
          planId: admission.planId,
          queue: admission.queue,
          planMaxRanks: admission.plan.features.concurrent_simulations,
        });
      });
    } else if (kind === 'analysis') {
      throw new HttpError(401, 'unauthenticated', ANALYSIS_NEEDS_ACCOUNT, { status: 'error' });
    } else {
      accounts.checkGuestModel(jobBytes);
      job = await this.createPrepared(prepared, { planId: null, queue: 'standard' });
    }
    await this.deps.queue.enqueue(job.id, job.queue);
    this.deps.log.info(
      { jobId: job.id, owner: owner.userId ?? 'guest', kind, queue: job.queue, estimate },
      'job queued',
    );
    return {
      status: 'queued',
      job_id: job.id,
      message: kind === 'meshing' ? 'Meshing job queued' : 'Analysis job queued',
    };
  }

  /**
   * Everything a submit checks and builds before admission: the 400s (analysis type, mesh, face ids,
   * memory), the engine's input and the estimate. Studies check their points with it before admitting them.
   */
  async prepare(
    owner: JobOwner,
    mesh: MeshData,
    config: AnalysisConfig,
    modelBytes: number,
    testHooks?: TestHooks,
  ): Promise<PreparedJob> {
    const meshing = config.meshingOnly || config.analysisType === 'tetra-only';
    const kind = meshing ? 'meshing' : 'analysis';
    if (!meshing) {
      refuseUnavailableAnalysis(config);
      config = this.expandMaterials(config);
    }
    // A meshing job may mesh the original upload (convert-step's upload_id) rather than triangles. An
    // adaptive analysis takes it along too: refinement puts new surface vertices on its CAD faces
    // (docs/adaptive.md); without it (an upload since deleted) they go on the reconstructed surface.
    const source = !mesh.source_upload_id
      ? null
      : meshing
        ? await this.meshSource(mesh.source_upload_id, mesh.units, owner)
        : config.adaptiveRefinement
          ? await this.meshSource(mesh.source_upload_id, mesh.units, owner).catch(() => null)
          : null;
    if (!meshing || !source) validateMesh(mesh, meshing);
    if (!meshing) refuseFaceIdsOutOfRange(mesh, config);
    const resources = meshing ? null : refuseOverMemory(mesh, config, this.deps.limits.jobMemoryLimitMb);
    // Stored with every analysis job: a later run may take its fields only on the same mesh.
    const hash = meshing ? null : meshHash(mesh);
    const chained =
      hash && config.fieldsFrom && owner.userId
        ? await checkFieldsFrom(
            this.deps.jobs,
            owner,
            config.fieldsFrom,
            hash,
            this.deps.limits.retentionHours,
          )
        : null;
    const input: Record<string, unknown> = { mesh_data: mesh, config, ...(source?.job ?? {}) };
    if (testHooks) input.test_hooks = testHooks;
    return {
      owner,
      kind,
      analysisType: config.analysisType,
      config,
      input,
      estimate: estimateSeconds(mesh, config, this.deps.limits.minEstimateSeconds),
      jobBytes: modelBytes + (source?.bytes ?? 0),
      memoryBytes: resources?.memoryBytes ?? null,
      sourceFile: source?.file ?? null,
      meshHash: hash,
      chained,
    };
  }

  /** Library material names become properties (the engine reads properties only). */
  expandMaterials(config: AnalysisConfig): AnalysisConfig {
    return {
      ...config,
      bodyMaterials: this.deps.materials.expand(config.bodyMaterials) as AnalysisConfig['bodyMaterials'],
    };
  }

  /**
   * An analysis whose input is already serialised (a study point, built on a worker thread from a mesh the
   * server made): the submit's checks that need only the mesh's counts — the analysis type and memory.
   * `config` has its materials expanded and is the one inside `inputJson`.
   */
  preparedFromInput(
    owner: JobOwner,
    config: AnalysisConfig,
    counts: MeshData,
    modelBytes: number,
    inputJson: Buffer,
    /** the mesh's content hash (mesh-hash.ts), computed where the input was built */
    meshHash: string | null = null,
  ): PreparedJob {
    refuseUnavailableAnalysis(config);
    const resources = refuseOverMemory(counts, config, this.deps.limits.jobMemoryLimitMb);
    return {
      owner,
      kind: 'analysis',
      analysisType: config.analysisType,
      config,
      input: {},
      inputJson,
      estimate: estimateSeconds(counts, config, this.deps.limits.minEstimateSeconds),
      jobBytes: modelBytes,
      memoryBytes: resources.memoryBytes,
      sourceFile: null,
      meshHash,
    };
  }

  /**
   * The job row (and its input files) of a prepared job that was admitted. `jobId` lets a caller that
   * records the id first (a study point) write the same job again after a restart instead of a second one.
   */
  async createPrepared(
    prepared: PreparedJob,
    placement: { planId: string | null; queue: string; planMaxRanks?: number; jobId?: string },
  ): Promise<JobRow> {
    const { config, memoryBytes } = prepared;
    // How many MPI ranks the job could use (the worker's MPI_SLOTS decide how many it gets).
    const ranksFile =
      memoryBytes !== null
        ? [
            {
              name: RANKS_FILE,
              body: Buffer.from(
                JSON.stringify(
                  rankRequest(
                    config,
                    memoryBytes,
                    this.deps.limits.jobMemoryLimitMb,
                    placement.planMaxRanks ?? 1,
                  ),
                ),
              ),
            },
          ]
        : [];
    return this.deps.jobs.create({
      id: placement.jobId,
      owner: prepared.owner,
      kind: prepared.kind,
      analysisType: prepared.analysisType,
      queue: placement.queue,
      input: prepared.inputJson ?? prepared.input,
      planId: placement.planId,
      estimateSeconds: prepared.kind === 'analysis' ? prepared.estimate : null,
      modelBytes: prepared.jobBytes,
      inputFiles: [
        ...(prepared.sourceFile ? [prepared.sourceFile] : []),
        ...ranksFile,
        ...(prepared.chained ? [prepared.chained.file] : []),
      ],
      meshHash: prepared.meshHash ?? null,
      fieldsFromJobId: prepared.chained?.source.id ?? null,
    });
  }

  /** The caller's upload as the input of a meshing job; 404 when it is not theirs. */
  private async meshSource(uploadId: string, units: string | undefined, owner: JobOwner) {
    const upload = await this.deps.uploads.findOwned(uploadId, owner);
    if (!upload) throw new HttpError(404, 'not_found', 'Upload not found', { status: 'error' });
    const source = await this.deps.uploads.meshSource(upload, units);
    const limits = {
      zip: { max_total_bytes: this.deps.limits.zipMaxExpandedMb * MB, max_ratio: ZIP_MAX_RATIO },
    };
    return { job: { source: source.input, limits }, file: source.file, bytes: upload.size_bytes };
  }

  /**
   * GET /api/fea/status/{id}: the reply for the owner, or null (404) for anyone else. A running job's
   * reply comes from the status cache (no query while its worker here feeds it) and is serialised once
   * per change; a completed job's is the stored, compressed reply (never re-read, parsed or serialised).
   */
  async statusReply(jobId: string, owner: JobOwner): Promise<StatusReply | null> {
    const cache = this.deps.jobs.statusCache;
    let entry = cache.get(jobId);
    if (!entry || !ownsJob(entry.snap, owner)) {
      // Not cached, or cached under another owner (a guest's job moves to the user who signs in).
      entry = await this.deps.jobs.readStatus(jobId);
      if (!entry || !ownsJob(entry.snap, owner)) return null;
    }
    const { snap } = entry;
    const completed = this.completedReply(snap);
    if (completed) {
      const body = await completed;
      return { kind: 'compressed', etag: body.etag, body };
    }
    return this.smallReply(entry as CachedSnapshot<Promise<StatusReply>>);
  }

  /** A completed job's stored, compressed reply (built once if missing); null for a job without results. */
  private completedReply(snap: JobSnapshot): Promise<CompressedReply> | null {
    if (snap.status !== 'completed' || snap.files_deleted_at || !snap.result_location) return null;
    const location = snap.result_location;
    // Built on the storage worker thread: the results file is parsed and serialised there (issue 37).
    return this.deps.completed.get(
      snap.id,
      location,
      () => this.statusResponse(snap) as unknown as Record<string, unknown>,
    );
  }

  /**
   * The status reply when it can be answered from memory right now, without a query, a storage read
   * or a build (the fast lane: `status-fast-lane.ts`); undefined sends the caller to `statusReply`.
   * Undefined too for someone else's job: only `statusReply` answers that (404).
   */
  statusReplyNow(jobId: string, owner: JobOwner): StatusReply | undefined {
    const entry = this.deps.jobs.statusCache.get(jobId);
    if (!entry || !ownsJob(entry.snap, owner)) return undefined;
    const { snap } = entry;
    if (snap.status === 'completed' && !snap.files_deleted_at && snap.result_location) {
      const body = this.deps.completed.peek(snap.id, snap.result_location);
      return body && { kind: 'compressed', etag: body.etag, body };
    }
    return this.builtReplies.get(entry);
  }

  /** The reply of a job without results, serialised once per snapshot. */
  private smallReply(entry: CachedSnapshot<Promise<StatusReply>>): Promise<StatusReply> {
    if (!entry.view) {
      const build = async (): Promise<StatusReply> => {
        const response = this.statusResponse(entry.snap);
        if (
          entry.snap.kind === 'meshing' &&
          entry.snap.status === 'failed' &&
          (await this.deps.markers.has(entry.snap))
        )
          response.problem_markers = `/api/fea/results/${entry.snap.id}/problem-markers`;
        const body = JSON.stringify(response);
        return { kind: 'json', etag: etagOf(body), body };
      };
      entry.view = build();
      entry.view.then(
        (reply) => this.builtReplies.set(entry, reply),
        () => {
          entry.view = undefined;
        },
      );
    }
    return entry.view;
  }

  /** Spec 001 §7's status object, in the order of its fields; `results` only for a completed job. */
  private statusResponse(job: JobSnapshot, results?: unknown): JobStatusResponse {
    const response: JobStatusResponse = {
      job_id: job.id,
      status: job.status,
      progress: job.progress,
      message: job.message ?? undefined,
    };
    if (job.status === 'failed' || job.status === 'cancelled')
      response.error = job.error_message ?? 'Job failed';
    if (job.status === 'completed' && job.files_deleted_at)
      response.message = FILES_DELETED(this.deps.limits.retentionHours);
    else if (results !== undefined) response.results = results;
    return response;
  }

  /** Builds (and stores) a completed job's reply once, as the job completes here. */
  private async warm(jobId: string): Promise<void> {
    try {
      const row = await this.deps.jobs.get(jobId);
      if (row?.status !== 'completed' || !row.result_location || row.files_deleted_at) return;
      for (const onDemand of this.builtOnDemand) if (await onDemand(jobId)) return;
      const owner = { userId: row.owner_user_id, sessionHash: row.owner_session_hash };
      await this.statusReply(jobId, owner);
    } catch (err) {
      this.deps.log.debug({ err, jobId }, 'could not prepare the completed status reply');
    }
  }

  /** results.json of a completed job, streamed from storage (JobStorage.streamResult). */
  async resultsFile(job: JobRow): Promise<BlobStream | null> {
    if (job.status !== 'completed' || !job.result_location || job.files_deleted_at) return null;
    return this.deps.jobs.files.streamResult(job.id, 'results.json');
  }

  /** results.bin, the viewer's binary twin of results.json (docs/results-binary.md), if the engine wrote it. */
  async resultsBinary(job: JobRow): Promise<BlobStream | null> {
    if (job.status !== 'completed' || !job.result_location || job.files_deleted_at) return null;
    return this.deps.jobs.files.streamResult(job.id, 'results.bin');
  }

  /** The engine's S-parameter exports (`sparameters.sNp`, `sparameters.csv`) of a completed job, streamed. */
  async networkExport(
    job: JobRow,
    format: Exclude<DownloadFormat, 'json'>,
  ): Promise<{ file: BlobStream; fileName: string; contentType: string } | null> {
    if (job.status !== 'completed' || job.files_deleted_at) return null;
    const name = resultFiles(job)
      .map((f) => f.name)
      .find((n) => (format === 'csv' ? n === 'sparameters.csv' : /^sparameters\.s\d+p$/.test(n)));
    if (!name) return null;
    const file = await this.deps.jobs.files.streamResult(job.id, name);
    if (!file) return null;
    const ext = name.slice(name.indexOf('.'));
    return {
      file,
      fileName: `fea_sparameters_${job.id}${ext}`,
      contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'text/plain; charset=us-ascii',
    };
  }

  async resultsInfo(job: JobRow): Promise<Record<string, unknown>> {
    return {
      job_id: job.id,
      status: job.status,
      kind: job.kind,
      analysis_type: job.analysis_type,
      queue: job.queue,
      queued_at: job.queued_at,
      started_at: job.started_at,
      finished_at: job.finished_at,
      attempts: job.attempts,
      compute_seconds: job.compute_seconds,
      cost_tokens: job.cost_tokens,
      cost_hours: job.cost_hours,
      saved: job.saved === 1,
      expires_at: job.saved === 1 ? null : job.expires_at,
      files: job.status === 'completed' && !job.files_deleted_at ? resultFiles(job) : [],
      files_deleted_at: job.files_deleted_at,
      contents:
        job.status === 'completed' && job.result_location && !job.files_deleted_at
          ? describeResults(await this.deps.jobs.files.readSummary(job.result_location))
          : null,
      error: job.error_message,
    };
  }

  /** POST /api/fea/cancel/{jobId}: a queued job stops at once, a running one at its worker's next heartbeat. */
  async cancel(job: JobRow): Promise<{ job_id: string; status: string; message: string }> {
    if (job.status !== 'queued' && job.status !== 'running') {
      throw new HttpError(
        409,
        'job_finished',
        `The job has already finished (${job.status}); there is nothing to cancel.`,
      );
    }
    const status = await this.deps.jobs.requestCancel(job);
    if (status === 'cancelled') await this.deps.queue.cancel(job.id);
    this.deps.log.info({ jobId: job.id, status }, 'job cancel requested');
    return {
      job_id: job.id,
      status,
      message:
        status === 'cancelled'
          ? 'Job cancelled'
          : status === 'cancelling'
            ? 'Cancelling: the solver is being stopped; time used so far is charged.'
            : `The job has already finished (${status}).`,
    };
  }

  /** Keeps a job's input and results past the retention period. */
  async save(job: JobRow): Promise<{ job_id: string; saved: boolean; message: string }> {
    if (job.files_deleted_at) {
      throw new HttpError(410, 'files_deleted', FILES_DELETED(this.deps.limits.retentionHours));
    }
    await this.deps.jobs.markSaved(job);
    return {
      job_id: job.id,
      saved: true,
      message: 'Saved: this job’s files are kept until you delete them.',
    };
  }
}

function resultFiles(job: JobRow): StoredFile[] {
  try {
    return job.result_files ? (JSON.parse(job.result_files) as StoredFile[]) : [];
  } catch {
    return [];
  }
}

/**
 * What a results file holds, for /api/fea/results/{id}/info: analysis, fields, derived quantities, extras.
 * `results` may be a `JobStorage.readSummary` (long arrays as their lengths).
 */
export function describeResults(results: unknown): Record<string, unknown> | null {
  if (!results || typeof results !== 'object') return null;
  const r = results as Record<string, unknown>;
  const info = (r.solver_info ?? {}) as Record<string, unknown>;
  const magnitudes = (r.field_magnitudes ?? {}) as Record<string, unknown>;
  const grid = r.grid as { resolution?: unknown } | undefined;
  const animation = r.animation as
    | { frames?: unknown; kind?: unknown; axis?: unknown; unit?: unknown; fields?: unknown }
    | undefined;
  // The named-field catalogue (docs/multiphysics.md §1), without its data.
  const catalogue = (r.fields && typeof r.fields === 'object' ? r.fields : {}) as Record<
    string,
    Record<string, unknown>
  >;
  const fields = Object.entries(catalogue).map(([name, f]) => ({
    name,
    label: f.label ?? name,
    unit: f.unit ?? null,
    kind: f.kind ?? null,
    location: f.location ?? 'vertex',
    complex: f.complex === true,
    ...(f.role ? { role: f.role } : {}),
  }));
  return {
    analysis: info.analysis ?? null,
    frequency: info.frequency ?? null,
    elements: info.elements ?? null,
    matrix_size: info.matrix_size ?? null,
    vertices: lengthOf(r.vertices) ?? 0,
    field_magnitudes: Object.keys(magnitudes),
    fields,
    quantities: Object.keys((r.quantities ?? {}) as Record<string, unknown>),
    complex_fields: r.complex_fields === true,
    grid: grid ? { resolution: grid.resolution ?? null } : null,
    animation: animation
      ? {
          frames: animation.frames ?? null,
          axis: animation.axis ?? animation.kind ?? null,
          unit: animation.unit ?? null,
          fields: Array.isArray(animation.fields) ? animation.fields : [],
        }
      : null,
  };
}

/** Server-side mirror of the environment's run checks (spec 001 §5), so the API refuses bad meshes too. */
export function validateMesh(mesh: MeshData, meshing: boolean): void {
  if (mesh.vertices.length === 0 && !(mesh.meshes && mesh.meshes.length > 0)) {
    throw invalidMesh('Invalid mesh data: No vertices found.');
  }
  const hasTets = (mesh.tetrahedra?.length ?? 0) > 0;
  if (!hasTets && mesh.faces.length === 0 && !(mesh.meshes && mesh.meshes.length > 0)) {
    throw invalidMesh('Invalid mesh data: No elements (tetrahedra or faces) found.');
  }
  if (!meshing && !hasTets) {
    throw invalidMesh('Invalid mesh data: the analysis needs a volume mesh. Generate Volume Mesh first.');
  }
  const n = mesh.vertices.length;
  const bad = (cells: number[][] | undefined, size: number) =>
    cells?.some((c) => c.length !== size || c.some((i) => i >= n));
  if (bad(mesh.tetrahedra, 4))
    throw invalidMesh('Invalid mesh data: a tetrahedron refers to a missing vertex.');
  if (hasTets && firstFlatTetrahedron(mesh.vertices, mesh.tetrahedra ?? []) >= 0)
    throw invalidMesh('Invalid mesh data: the volume mesh has tetrahedra with zero volume.');
  if (mesh.faces.some((f) => f.length < 3 || f.some((i) => i >= n))) {
    throw invalidMesh('Invalid mesh data: a face refers to a missing vertex.');
  }
}
