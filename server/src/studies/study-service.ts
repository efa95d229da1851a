import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  AnalysisConfig,
  type CancelStudyResponse,
  type ConvergenceReport,
  type ConvergenceSpec,
  type CreateStudyRequest,
  type CreateStudyResponse,
  MESH_PARAMETERS,
  type MeshData,
  type StudyPoint,
  type StudyProgress,
  type StudyResponse,
  type StudySummary,
} from '@fieldline/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ComputeAccounts } from '../billing/compute-accounts.ts';
import { estimateSeconds } from '../billing/job-estimate.ts';
import { effectiveAnalysisType, type FeaService, type TestHooks } from '../fea/fea-service.ts';
import type { UploadService } from '../geometry/upload-service.ts';
import { HttpError, notFound } from '../http/errors.ts';
import type { AdmissionLock } from '../jobs/admission-lock.ts';
import type { JobOwner } from '../jobs/job-owner.ts';
import type { JobService } from '../jobs/job-service.ts';
import type { EncryptedStorage } from '../storage/encrypted-storage.ts';
import { convergenceSize } from './convergence.ts';
import { checkParameter, parsePath, withValueAt } from './parameter-paths.ts';
import type { BaseMeshFacts } from './point-input.ts';
import { checkOutputs } from './study-outputs.ts';
import { type PlannedPoint, parameterValues, planPoints } from './study-plan.ts';
import {
  isFinalPoint,
  type PointRow,
  type PointWithJob,
  type StudyRow,
  type StudyStore,
} from './study-store.ts';
import { tableStream } from './study-table.ts';

/** What a study keeps besides its rows' columns (the `spec` column, JSON). */
export interface StudySpec {
  parameters: { path: string; values: number[] }[];
  combine: 'grid' | 'zip';
  outputs: string[];
  convergence: ConvergenceSpec | null;
  /** the config every point starts from (each `faces` list holds CAD face ids when `meshes` is true) */
  config: AnalysisConfig;
  /** every point meshes the upload first (a mesh parameter, a convergence study, or no volume mesh given) */
  meshes: boolean;
  units: string | undefined;
  /**
   * The shared mesh's counts and hash, computed once at create (a sweep on a given volume mesh): each
   * point's input is then spliced from the stored base without parsing it (point-input.ts). Studies
   * created before it was stored have none; their points' inputs are built on the results reader.
   */
  baseMesh?: BaseMeshFacts;
  /** ENGINE_TEST_HOOKS only: put into every point's job input */
  testHooks?: TestHooks;
}

export const baseKey = (studyId: string) => `studies/${studyId}/base.json`;
const iso = (ms = Date.now()) => new Date(ms).toISOString();
/** The tetrahedra a point is estimated with when the study meshes and no volume mesh was given. */
const GUESSED_TETRAHEDRA = 20_000;
const STUDY_LIST_LIMIT = 50;
/** Points read from the database at a time for a table download. */
export const TABLE_PAGE_POINTS = 50;

export interface StudyServiceDeps {
  store: StudyStore;
  fea: FeaService;
  jobs: JobService;
  uploads: UploadService;
  accounts: Pick<ComputeAccounts, 'admit' | 'reservations'>;
  admission: AdmissionLock;
  storage: EncryptedStorage;
  minEstimateSeconds: number;
  log: FastifyBaseLogger;
  /** Called once a study's rows exist, so its first points are released at once. */
  wake: () => void;
}

/** Creates, reads and cancels design studies; the scheduler (study-scheduler.ts) moves their points. */
export class StudyService {
  constructor(private readonly deps: StudyServiceDeps) {
    // Points that wait for a slot hold their estimate against the balance, as queued jobs do.
    deps.accounts.reservations.push((userId) => deps.store.waitingEstimate(userId));
    // A point's status reply is built when someone opens the point, not as it completes.
    deps.fea.builtOnDemand.push((jobId) => deps.store.isPointJob(jobId));
  }

  async create(
    userId: string,
    request: CreateStudyRequest,
    modelBytes: number,
    testHooks?: TestHooks,
    /** check and estimate only (the Study panel's estimate before Run Study): nothing is stored */
    dryRun = false,
  ): Promise<CreateStudyResponse> {
    const owner: JobOwner = { userId, sessionHash: null };
    const parsed = AnalysisConfig.safeParse(request.config);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HttpError(
        400,
        'invalid_config',
        `config${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'invalid'}`,
      );
    }
    const config = parsed.data;
    const analysisType = effectiveAnalysisType(config);
    if ((config as { fieldsFrom?: unknown }).fieldsFrom)
      throw new HttpError(
        400,
        'invalid_config',
        'config.fieldsFrom: a study’s points cannot take fields from another job (yet); run the chained analysis as a single job.',
      );
    if (config.meshingOnly || analysisType === 'tetra-only')
      throw new HttpError(
        400,
        'invalid_config',
        'A study runs analyses: choose an analysis type, not tetra-only.',
      );
    const convergence = request.convergence ?? null;
    const outputs = [...request.outputs];
    if (convergence && !outputs.includes(convergence.output)) outputs.push(convergence.output);
    checkOutputs(analysisType, outputs);
    if (convergence && request.parameters.length > 0)
      throw new HttpError(
        400,
        'invalid_parameter',
        'A convergence study varies the mesh size only: leave parameters out (run a sweep for the others).',
      );
    if (!convergence && request.parameters.length === 0)
      throw new HttpError(400, 'invalid_parameter', 'A study needs at least one parameter to vary.');

    // Every path and value is checked before anything is stored.
    const parameters = request.parameters.map((p) => ({ path: p.path, values: parameterValues(p) }));
    for (const p of parameters) checkParameter(config, p.path, p.values);
    const planned: PlannedPoint[] = convergence
      ? [{ index: 0, parameters: { meshMaxSize: convergence.startSize } }]
      : planPoints({ parameters: request.parameters, combine: request.combine });
    if (convergence) checkParameter(config, 'meshMaxSize', [convergence.startSize]);

    const mesh = request.mesh_data;
    const uploadId = request.upload_id ?? mesh?.source_upload_id ?? null;
    const hasVolume = (mesh?.tetrahedra?.length ?? 0) > 0;
    const meshes =
      convergence !== null ||
      parameters.some((p) => (MESH_PARAMETERS as readonly string[]).includes(p.path)) ||
      !hasVolume;
    if (meshes && !uploadId)
      throw new HttpError(
        400,
        'upload_required',
        hasVolume
          ? 'A study that varies the mesh meshes each point from the uploaded model: give upload_id (or mesh_data.source_upload_id).'
          : 'The study needs a volume mesh (mesh_data with tetrahedra) or an uploaded model to mesh (upload_id).',
      );
    if (uploadId && meshes && !(await this.deps.uploads.findOwned(uploadId, owner)))
      throw notFound('Upload not found');
    const baseConfig = meshes ? facesAsCadFaces(config, mesh) : config;

    // The points' 400s (analysis availability, mesh, face ids, memory) come from the submit's own checks.
    const pointConfig = (p: PlannedPoint) =>
      Object.entries(p.parameters).reduce<AnalysisConfig>(
        (c, [path, value]) => withValueAt(c, parsePath(path), value),
        config,
      );
    let baseMesh: BaseMeshFacts | undefined;
    if (!meshes && mesh) {
      const first = planned[0];
      const prepared = first
        ? await this.deps.fea.prepare(owner, mesh, pointConfig(first), modelBytes)
        : null;
      if (prepared?.meshHash)
        baseMesh = {
          hash: prepared.meshHash,
          vertices: mesh.vertices.length,
          faces: mesh.faces.length,
          tetrahedra: mesh.tetrahedra?.length ?? 0,
          hasPatches: Array.isArray(mesh.face_patches),
        };
    }
    const estimates = this.pointEstimates(planned, pointConfig, mesh, config, convergence);
    const total = convergence
      ? Array.from({ length: convergence.maxPoints }, (_, k) =>
          this.meshedEstimate(mesh, config, convergenceSize(convergence, k), config),
        ).reduce((a, b) => a + b, 0)
      : estimates.reduce((a, b) => a + b, 0);
    const count = convergence ? convergence.maxPoints : planned.length;
    if (dryRun)
      return {
        study_id: '',
        points: planned.map((p) => ({ index: p.index, parameters: p.parameters })),
        estimate_seconds: total,
        message: `${count} point${count === 1 ? '' : 's'}, estimated at ${Math.ceil(total / 60)} compute-minute${Math.ceil(total / 60) === 1 ? '' : 's'} in all.`,
      };

    const id = randomUUID();
    const spec: StudySpec = {
      parameters: convergence ? [] : parameters,
      combine: request.combine,
      outputs,
      convergence,
      config: baseConfig,
      meshes,
      units: mesh?.units,
      ...(baseMesh ? { baseMesh } : {}),
      ...(testHooks ? { testHooks } : {}),
    };
    await this.deps.admission.run(userId, async () => {
      const admission = await this.deps.accounts.admit(userId, {
        kind: 'analysis',
        estimateSeconds: total,
        modelBytes,
        study: { points: count },
      });
      const study: StudyRow = {
        id,
        owner_user_id: userId,
        name: request.name,
        kind: convergence ? 'convergence' : 'sweep',
        analysis_type: analysisType,
        status: 'running',
        spec: JSON.stringify(spec),
        base_location: null,
        upload_id: uploadId,
        plan_id: admission.planId,
        queue: admission.queue,
        estimate_seconds: total,
        model_bytes: modelBytes,
        created_at: iso(),
        finished_at: null,
        report: null,
      };
      // The mesh every point shares is stored once; each released point's job gets its own input.
      if (!meshes && mesh) {
        await this.deps.storage.put(baseKey(id), Buffer.from(JSON.stringify({ mesh_data: mesh })));
        study.base_location = baseKey(id);
      }
      const rows: PointRow[] = planned.map((p, i) => ({
        study_id: id,
        idx: p.index,
        parameters: JSON.stringify(p.parameters),
        status: 'pending',
        estimate_seconds: estimates[i] ?? 0,
        mesh_job_id: null,
        job_id: null,
        outputs: null,
        error: null,
        tetrahedra: null,
        finished_at: null,
      }));
      try {
        await this.deps.store.insert(study, rows);
      } catch (err) {
        if (study.base_location) await this.deps.storage.delete(study.base_location).catch(() => undefined);
        throw err;
      }
    });
    this.deps.log.info({ studyId: id, userId, points: count, estimate: total }, 'study created');
    this.deps.wake();
    return {
      study_id: id,
      points: planned.map((p) => ({ index: p.index, parameters: p.parameters })),
      estimate_seconds: total,
      message: convergence
        ? `Convergence study queued: up to ${count} meshes, finer by ${convergence.ratio}× each.`
        : `Study queued: ${count} point${count === 1 ? '' : 's'}.`,
    };
  }

  private pointEstimates(
    planned: PlannedPoint[],
    pointConfig: (p: PlannedPoint) => AnalysisConfig,
    mesh: MeshData | undefined,
    config: AnalysisConfig,
    convergence: ConvergenceSpec | null,
  ): number[] {
    return planned.map((p) => {
      const c = pointConfig(p);
      const size = p.parameters.meshMaxSize ?? (convergence ? convergence.startSize : undefined);
      if (size !== undefined || !mesh?.tetrahedra?.length) return this.meshedEstimate(mesh, config, size, c);
      return estimateSeconds(mesh, c, this.deps.minEstimateSeconds);
    });
  }

  /**
   * A point that meshes first has no mesh yet: the given volume mesh's tetrahedra scaled by (h₀/h)³, where
   * h₀ is the config's meshMaxSize (else the mesher's default, a twentieth of the bounding box diagonal).
   */
  private meshedEstimate(
    mesh: MeshData | undefined,
    base: AnalysisConfig,
    size: number | undefined,
    config: AnalysisConfig,
  ): number {
    const tets = mesh?.tetrahedra?.length ?? 0;
    const h0 =
      base.meshMaxSize ?? (mesh && mesh.vertices.length > 0 ? diagonal(mesh.vertices) / 20 : undefined);
    const count =
      tets > 0 && h0 && size ? Math.ceil(tets * (h0 / size) ** 3) : tets > 0 ? tets : GUESSED_TETRAHEDRA;
    return estimateSeconds(countsMesh(0, 0, count), config, this.deps.minEstimateSeconds);
  }

  async list(userId: string): Promise<StudySummary[]> {
    const rows = await this.deps.store.listForUser(userId, STUDY_LIST_LIMIT);
    const counts = await this.deps.store.statusCounts(rows.map((r) => r.id));
    return rows.map((r) => summaryOf(r, progressOf(counts.get(r.id) ?? {})));
  }

  /** The study with its points, or a 404 for anyone but its owner. */
  async get(userId: string, studyId: string): Promise<StudyResponse> {
    const study = await this.deps.store.find(studyId, userId);
    if (!study) throw notFound('Study not found');
    const points = await this.deps.store.points(study.id);
    const counts: Record<string, number> = {};
    for (const p of points) counts[p.status] = (counts[p.status] ?? 0) + 1;
    const spec = specOf(study);
    const progress = progressOf(counts);
    if (study.kind === 'convergence' && spec.convergence)
      progress.total = Math.max(points.length, progress.total);
    return {
      ...summaryOf(study, progress),
      points: points.map((p) => pointOf(p, spec)),
      convergence: study.report ? (JSON.parse(study.report) as ConvergenceReport) : null,
    };
  }

  /**
   * The study's table (GET …/table) as a stream of CSV or JSON text: the study is looked up first (a 404
   * before any byte), then its points are read and written a page at a time, so a download of a large study
   * holds one page in memory, never the whole table.
   */
  async table(
    userId: string,
    studyId: string,
    format: 'csv' | 'json',
  ): Promise<{ name: string; body: Readable }> {
    const study = await this.deps.store.find(studyId, userId);
    if (!study) throw notFound('Study not found');
    const spec = specOf(study);
    const store = this.deps.store;
    const id = study.id;
    async function* pages(): AsyncGenerator<StudyPoint[]> {
      for (let after = -1; ; ) {
        const page = await store.pointsPage(id, after, TABLE_PAGE_POINTS);
        if (page.length === 0) return;
        yield page.map((p) => pointOf(p, spec));
        after = page[page.length - 1]?.idx ?? after;
        if (page.length < TABLE_PAGE_POINTS) return;
      }
    }
    return { name: study.name, body: tableStream(summaryOf(study, progressOf({})), pages(), format) };
  }

  /** Queued and waiting points are cancelled at once, running ones are stopped, finished ones kept. */
  async cancel(userId: string, studyId: string): Promise<CancelStudyResponse> {
    const study = await this.deps.store.find(studyId, userId);
    if (!study) throw notFound('Study not found');
    let cancelled = 0;
    let stopping = 0;
    let kept = 0;
    await this.deps.admission.run(userId, async () => {
      if (study.status === 'running') await this.deps.store.updateStudy(study.id, { status: 'cancelled' });
      for (const p of await this.deps.store.points(study.id)) {
        if (isFinalPoint(p.status)) {
          kept++;
          continue;
        }
        const jobId = p.status === 'meshing' ? p.mesh_job_id : p.job_id;
        const job = jobId ? await this.deps.jobs.get(jobId) : null;
        if (job && (job.status === 'queued' || job.status === 'running')) {
          const result = await this.deps.fea.cancel(job);
          if (result.status === 'cancelling') {
            stopping++;
            continue; // the scheduler records the point as cancelled once its worker stopped it
          }
        }
        const moved = await this.deps.store.movePoint(study.id, p.idx, [p.status], {
          status: 'cancelled',
          error: 'Cancelled with the study',
          finished_at: iso(),
        });
        if (moved) cancelled++;
      }
    });
    this.deps.log.info({ studyId, cancelled, stopping, kept }, 'study cancelled');
    this.deps.wake();
    return {
      study_id: study.id,
      status: study.status === 'completed' ? 'completed' : 'cancelled',
      cancelled,
      stopping,
      kept,
      message:
        `${cancelled} waiting point${cancelled === 1 ? '' : 's'} cancelled, ${stopping} running ` +
        `point${stopping === 1 ? '' : 's'} being stopped (time used is charged), ${kept} finished kept.`,
    };
  }
}

export function specOf(study: StudyRow): StudySpec {
  return JSON.parse(study.spec) as StudySpec;
}

function summaryOf(study: StudyRow, progress: StudyProgress): StudySummary {
  const spec = specOf(study);
  return {
    study_id: study.id,
    name: study.name,
    kind: study.kind,
    analysis_type: study.analysis_type,
    status: study.status,
    created_at: study.created_at,
    finished_at: study.finished_at,
    combine: spec.combine,
    outputs: spec.outputs,
    parameters: spec.convergence ? [{ path: 'meshMaxSize', values: [] }] : spec.parameters,
    progress,
    estimate_seconds: study.estimate_seconds,
    remeshes: spec.meshes,
  };
}

function progressOf(counts: Record<string, number>): StudyProgress {
  const n = (k: string) => counts[k] ?? 0;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const finished = n('completed') + n('failed') + n('cancelled');
  return {
    total,
    pending: n('pending'),
    meshing: n('meshing'),
    queued: n('queued'),
    running: n('running'),
    completed: n('completed'),
    failed: n('failed'),
    cancelled: n('cancelled'),
    percent: total > 0 ? Math.round((1000 * finished) / total) / 10 : 0,
  };
}

function pointOf(p: PointWithJob, spec: StudySpec): StudyPoint {
  const stored = p.outputs
    ? (JSON.parse(p.outputs) as { values: Record<string, number | null>; errors?: Record<string, string> })
    : null;
  const outputs = Object.fromEntries(spec.outputs.map((name) => [name, stored?.values[name] ?? null]));
  return {
    index: p.idx,
    parameters: JSON.parse(p.parameters) as Record<string, number>,
    status: p.status,
    job_id: p.job_id,
    mesh_job_id: p.mesh_job_id,
    outputs,
    ...(stored?.errors && Object.keys(stored.errors).length > 0 ? { output_errors: stored.errors } : {}),
    error: p.error,
    compute_seconds: p.compute_seconds,
    cost_tokens: p.cost_tokens,
    tetrahedra: p.tetrahedra,
    mesh_hash: p.mesh_hash,
  };
}

/**
 * A config whose `faces` lists name triangles of `mesh` rewritten to name the CAD faces (patches) those
 * triangles cover, so every re-meshed point finds the same faces among its own triangles. A list must
 * cover whole CAD faces: part of one cannot be found again on another mesh. Without a given mesh the face
 * ids are taken as CAD face ids already.
 */
function facesAsCadFaces(config: AnalysisConfig, mesh: MeshData | undefined): AnalysisConfig {
  if (!mesh || mesh.faces.length === 0) return config;
  const patches = mesh.face_patches;
  const patchSize = new Map<number, number>();
  for (const p of patches ?? []) patchSize.set(p, (patchSize.get(p) ?? 0) + 1);
  const rewrite = (value: unknown, where: string): unknown => {
    if (Array.isArray(value)) return value.map((v, i) => rewrite(v, `${where}[${i}]`));
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        const path = where ? `${where}.${k}` : k;
        if (k !== 'faces' || !Array.isArray(v) || v.length === 0) return [k, rewrite(v, path)];
        if (!patches || patches.length !== mesh.faces.length)
          throw new HttpError(
            400,
            'face_patches_required',
            `${path}: this study meshes each point anew, so its faces must be whole CAD faces, and the model's triangles carry no CAD face ids (face_patches). Upload a STEP model, or give CAD face ids with upload_id and no mesh_data.`,
          );
        const covered = new Map<number, number>();
        for (const f of new Set(v as number[])) {
          const p = patches[f - 1];
          if (p !== undefined) covered.set(p, (covered.get(p) ?? 0) + 1);
        }
        for (const [p, n] of covered)
          if (n !== patchSize.get(p))
            throw new HttpError(
              400,
              'partial_cad_face',
              `${path}: covers ${n} of the ${patchSize.get(p)} triangles of CAD face ${p}. This study meshes each point anew, so a face list must hold whole CAD faces: select the whole face.`,
            );
        return [k, [...covered.keys()].sort((a, b) => a - b)];
      }),
    );
  };
  return rewrite(config, '') as AnalysisConfig;
}

function diagonal(vertices: [number, number, number][]): number {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const v of vertices)
    for (let a = 0; a < 3; a++) {
      lo[a] = Math.min(lo[a] as number, v[a] as number);
      hi[a] = Math.max(hi[a] as number, v[a] as number);
    }
  return Math.hypot(...hi.map((h, a) => h - (lo[a] as number)));
}

/** A mesh standing in for its counts (the estimates read only how many vertices, faces and tetrahedra). */
export function countsMesh(vertices: number, faces: number, tetrahedra: number): MeshData {
  return {
    vertices: new Array(vertices),
    faces: new Array(faces),
    tetrahedra: new Array(tetrahedra),
  } as MeshData;
}
