import { randomUUID } from 'node:crypto';
import type { AnalysisConfig, MeshData } from '@fieldline/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { estimateSeconds } from '../billing/job-estimate.ts';
import type { UserPlans } from '../billing/user-plans.ts';
import type { FeaService } from '../fea/fea-service.ts';
import type { AdmissionLock } from '../jobs/admission-lock.ts';
import type { JobOwner } from '../jobs/job-owner.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { JobService } from '../jobs/job-service.ts';
import type { EncryptedStorage } from '../storage/encrypted-storage.ts';
import { convergenceReport, convergenceSize } from './convergence.ts';
import { parsePath, withValueAt } from './parameter-paths.ts';
import { sweepPointInput } from './point-input.ts';
import type { ResultsReader } from './results-reader.ts';
import { outputValue } from './study-outputs.ts';
import { countsMesh, type StudySpec, specOf } from './study-service.ts';
import { isFinalPoint, type PointWithJob, type StudyRow, type StudyStore } from './study-store.ts';

const iso = (ms = Date.now()) => new Date(ms).toISOString();
/** How often the scheduler looks at the unfinished studies it is moving along when nothing woke it. */
const TICK_MS = 500;
/**
 * How often a scheduler with nothing to move looks for unfinished studies all the same: ones another process
 * created and stopped moving (it crashed), or that were left when this one restarted. Idle API processes
 * otherwise make no queries for studies (polls are served from memory, docs/compute.md).
 */
const IDLE_TICK_MS = 15_000;
/** The largest study model kept in memory between its points (larger ones are read for each point). */
const KEPT_BASE_BYTES = 64 * 1024 * 1024;

export interface StudySchedulerDeps {
  store: StudyStore;
  fea: FeaService;
  jobs: JobService;
  queue: JobQueue;
  userPlans: Pick<UserPlans, 'planOf'>;
  admission: AdmissionLock;
  storage: EncryptedStorage;
  reader: ResultsReader;
  minEstimateSeconds: number;
  log: FastifyBaseLogger;
}

/**
 * Moves every unfinished study along; all of its state is in the database, so any API process (after a
 * restart, or one of several) carries on where another stopped:
 * - follows each point's jobs (meshing, then analysis) and collects its outputs when it completes;
 * - releases waiting points as ordinary jobs while the owner's plan has a free slot (`concurrent_simulations`:
 *   points wait here instead of being refused with a 429), under the owner's admission lock, so plain
 *   submits and other processes see the same count. A point's job id is recorded before its job row is
 *   written: after a crash in between, the same job is written again, never a second one;
 * - adds a convergence study's next mesh, and finishes studies whose points are all done.
 */
export class StudyScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** the last pass found unfinished studies */
  private busy = false;
  private lastPassAt = 0;
  /** the jobs (meshing and analysis) of the points of the studies the last pass looked at */
  private pointJobs = new Set<string>();
  /** the last study model read for a point (`baseOf`) */
  private base: { location: string; bytes: Buffer } | null = null;

  constructor(private readonly deps: StudySchedulerDeps) {
    // A point's results are read for its outputs as soon as its run is recorded: kept for that, if it runs here.
    deps.jobs.files.resultsWanted.push((jobId) => this.pointJobs.has(jobId));
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => {
      if (this.busy || Date.now() - this.lastPassAt >= IDLE_TICK_MS) this.wake();
    }, TICK_MS);
    this.timer.unref();
    this.wake();
  }

  /** A job changed state (here, or in another process as the status feed tells): a pass if it is a point's. */
  jobChanged(jobId: string): void {
    if (this.pointJobs.has(jobId)) this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Runs a pass now (or right after the one in progress). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.pass();
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = null;
    });
  }

  /** One look at every unfinished study (tests call it to step the scheduler). */
  async pass(): Promise<void> {
    this.lastPassAt = Date.now();
    let studies: StudyRow[];
    try {
      studies = await this.deps.store.active();
    } catch (err) {
      this.deps.log.warn({ err }, 'study scheduler could not read the studies');
      return;
    }
    this.busy = studies.length > 0;
    const jobs = new Set<string>();
    for (const study of studies) {
      try {
        await this.advance(study, jobs);
      } catch (err) {
        this.deps.log.error({ err, studyId: study.id }, 'study scheduler pass failed');
      }
    }
    this.pointJobs = jobs;
  }

  private async advance(study: StudyRow, jobs: Set<string>): Promise<void> {
    const spec = specOf(study);
    let points = await this.deps.store.points(study.id);
    let changed = false;
    for (const p of points) if (await this.follow(study, spec, p)) changed = true;
    if (
      study.status === 'running' &&
      (await this.deps.admission.run(study.owner_user_id, () => this.release(study, spec)))
    )
      changed = true;
    // read again only if this pass moved a point (a pass per job change: most move one, some none)
    if (changed) points = await this.deps.store.points(study.id);
    for (const p of points) {
      if (p.job_id) jobs.add(p.job_id);
      if (p.mesh_job_id) jobs.add(p.mesh_job_id);
    }
    if (!points.every((p) => isFinalPoint(p.status))) return;
    if (spec.convergence && study.status === 'running') {
      const decided = await this.nextConvergencePoint(study, spec, points);
      if (!decided) return;
    } else if (spec.convergence) {
      await this.storeReport(study, spec, points, true);
    }
    await this.deps.store.updateStudy(study.id, {
      status: study.status === 'running' ? 'completed' : study.status,
      finished_at: iso(),
    });
    if (study.base_location) {
      if (this.base?.location === study.base_location) this.base = null;
      await this.deps.storage.delete(study.base_location).catch(() => undefined);
      await this.deps.store.updateStudy(study.id, { base_location: null });
    }
    this.deps.log.info({ studyId: study.id, status: study.status }, 'study finished');
  }

  /**
   * A point's state from its jobs; a completed analysis has its outputs read (off the event loop). True when
   * the point may have moved.
   */
  private async follow(study: StudyRow, spec: StudySpec, p: PointWithJob): Promise<boolean> {
    const { store } = this.deps;
    if (p.status === 'meshing') {
      if (p.mesh_status === 'completed')
        return store.movePoint(study.id, p.idx, ['meshing'], { status: 'pending' });
      if (p.mesh_status === 'failed' || p.mesh_status === 'cancelled')
        return store.movePoint(study.id, p.idx, ['meshing'], {
          status: p.mesh_status,
          error: `Meshing ${p.mesh_status === 'failed' ? 'failed' : 'was cancelled'}: ${p.mesh_error ?? 'no message'}`,
          finished_at: iso(),
        });
      return false;
    }
    if (p.status !== 'queued' && p.status !== 'running') return false;
    if (p.job_status === 'running' && p.status === 'queued')
      return store.movePoint(study.id, p.idx, ['queued'], { status: 'running' }, { soft: true });
    if (p.job_status === 'failed' || p.job_status === 'cancelled')
      return store.movePoint(study.id, p.idx, ['queued', 'running'], {
        status: p.job_status,
        error: p.job_error ?? (p.job_status === 'failed' ? 'The job failed' : 'Job cancelled'),
        finished_at: iso(),
      });
    if (p.job_status === 'completed') {
      const outputs = await this.collect(p, spec.outputs);
      return store.movePoint(
        study.id,
        p.idx,
        ['queued', 'running'],
        {
          status: 'completed',
          outputs: JSON.stringify({ values: outputs.values, errors: outputs.errors }),
          tetrahedra: outputs.tetrahedra ?? p.tetrahedra,
          finished_at: iso(),
        },
        { soft: true },
      );
    }
    return false;
  }

  private async collect(p: PointWithJob, names: string[]) {
    const values: Record<string, number | null> = {};
    const errors: Record<string, string> = {};
    const kept = p.job_id ? this.deps.jobs.files.takeResults(p.job_id) : null;
    const bytes = p.job_result
      ? (kept ?? (await this.deps.storage.get(p.job_result).catch(() => null)))
      : null;
    if (!bytes) {
      for (const name of names) {
        values[name] = null;
        errors[name] = 'the results were deleted before the study read them';
      }
      return { values, errors, tetrahedra: null };
    }
    const summary = await this.deps.reader.summary(bytes);
    for (const name of names) {
      const { value, error } = outputValue(summary, name);
      values[name] = value;
      if (error) errors[name] = error;
    }
    return { values, errors, tetrahedra: summary.tetrahedra };
  }

  /**
   * Under the owner's admission lock: rewrites jobs a crash left unwritten, then fills free slots. True when
   * it started or moved a point.
   */
  private async release(study: StudyRow, spec: StudySpec): Promise<boolean> {
    const owner: JobOwner = { userId: study.owner_user_id, sessionHash: null };
    const points = await this.deps.store.points(study.id);
    let changed = false;
    // A point whose job id was recorded but whose row is missing: the process stopped in between.
    for (const p of points) {
      if (p.status === 'meshing' && p.mesh_job_id && p.mesh_status === null) {
        await this.startMeshing(study, spec, p, owner, p.mesh_job_id);
        changed = true;
      }
      if (p.status === 'queued' && p.job_id && p.job_status === null) {
        await this.startAnalysis(study, spec, p, owner, p.job_id);
        changed = true;
      }
    }
    const plan = await this.deps.userPlans.planOf(study.owner_user_id);
    const active =
      (await this.deps.jobs.activeAnalysisOf(study.owner_user_id)).count +
      (await this.deps.store.meshingCount(study.owner_user_id));
    let free = plan.plan.features.concurrent_simulations - active;
    if (free <= 0) return changed;
    const meshed = (p: PointWithJob) => p.mesh_job_id !== null && p.mesh_status === 'completed';
    const waiting = points
      .filter((p) => p.status === 'pending')
      .sort((a, b) => Number(meshed(b)) - Number(meshed(a)) || a.idx - b.idx);
    for (const p of waiting) {
      if (free <= 0) break;
      if (spec.meshes && !meshed(p)) {
        if (p.mesh_job_id && p.mesh_status !== null) continue; // meshing elsewhere
        const meshJobId = randomUUID();
        if (
          !(await this.deps.store.movePoint(study.id, p.idx, ['pending'], {
            status: 'meshing',
            mesh_job_id: meshJobId,
          }))
        )
          continue;
        await this.startMeshing(study, spec, p, owner, meshJobId);
      } else {
        const jobId = randomUUID();
        if (
          !(await this.deps.store.movePoint(
            study.id,
            p.idx,
            ['pending'],
            { status: 'queued', job_id: jobId },
            { soft: true }, // the job's row, written next, is a durable write
          ))
        )
          continue;
        await this.startAnalysis(study, spec, p, owner, jobId);
      }
      changed = true;
      free--;
    }
    return changed;
  }

  private pointConfig(spec: StudySpec, p: PointWithJob): AnalysisConfig {
    const parameters = JSON.parse(p.parameters) as Record<string, number>;
    return Object.entries(parameters).reduce<AnalysisConfig>(
      (c, [path, value]) => withValueAt(c, parsePath(path), value),
      spec.config,
    );
  }

  private async startMeshing(
    study: StudyRow,
    spec: StudySpec,
    p: PointWithJob,
    owner: JobOwner,
    meshJobId: string,
  ): Promise<void> {
    try {
      const config = {
        ...this.pointConfig(spec, p),
        analysisType: 'tetra-only',
        meshingOnly: true,
      } as AnalysisConfig;
      const source = {
        vertices: [],
        faces: [],
        source_upload_id: study.upload_id ?? undefined,
        units: spec.units,
      } as MeshData;
      const prepared = await this.deps.fea.prepare(owner, source, config, 0);
      const job = await this.deps.fea.createPrepared(prepared, {
        planId: study.plan_id,
        queue: study.queue,
        jobId: meshJobId,
      });
      await this.deps.queue.enqueue(job.id, job.queue);
    } catch (err) {
      await this.failPoint(study, p, 'meshing', err);
    }
  }

  private async startAnalysis(
    study: StudyRow,
    spec: StudySpec,
    p: PointWithJob,
    owner: JobOwner,
    jobId: string,
  ): Promise<void> {
    try {
      const config = this.deps.fea.expandMaterials(this.pointConfig(spec, p));
      let built: Awaited<ReturnType<ResultsReader['baseInput']>>;
      if (spec.meshes) {
        const meshJob = p.mesh_job_id ? await this.deps.jobs.get(p.mesh_job_id) : null;
        const bytes = meshJob?.result_location ? await this.deps.storage.get(meshJob.result_location) : null;
        if (!bytes) throw new Error('the mesh of this point was deleted before its analysis started');
        built = await this.deps.reader.pointInput(
          bytes,
          config,
          spec.units,
          study.upload_id ?? '',
          spec.testHooks,
        );
      } else {
        const base = study.base_location ? await this.baseOf(study.base_location) : null;
        if (!base) throw new Error('the study’s stored model is missing');
        const spliced = spec.baseMesh ? sweepPointInput(base, config, spec.testHooks) : null;
        built =
          spec.baseMesh && spliced
            ? { ...spec.baseMesh, input: spliced, meshHash: spec.baseMesh.hash }
            : await this.deps.reader.baseInput(base, config, spec.testHooks);
      }
      const counts = countsMesh(built.vertices, built.faces, built.tetrahedra);
      // the point's job stores its mesh's hash like any analysis job: points can be compared and chained
      const prepared = this.deps.fea.preparedFromInput(
        owner,
        config,
        counts,
        study.model_bytes,
        built.input,
        built.meshHash,
      );
      await this.deps.store.movePoint(
        study.id,
        p.idx,
        ['queued'],
        { tetrahedra: built.tetrahedra },
        { soft: true },
      );
      const job = await this.deps.fea.createPrepared(prepared, {
        planId: study.plan_id,
        queue: study.queue,
        jobId,
      });
      await this.deps.queue.enqueue(job.id, job.queue);
    } catch (err) {
      await this.failPoint(study, p, 'queued', err);
    }
  }

  /**
   * The study's stored model (opened), kept for its next points: it was read and opened again for every
   * point (bench/studies). A location is written once, at create, and deleted when the study ends.
   */
  private async baseOf(location: string): Promise<Buffer | null> {
    if (this.base?.location === location) return this.base.bytes;
    const bytes = await this.deps.storage.get(location);
    this.base = bytes && bytes.length <= KEPT_BASE_BYTES ? { location, bytes } : null;
    return bytes;
  }

  /** A point that cannot start (its mesh is over the memory limit, its input cannot be built) fails alone. */
  private async failPoint(study: StudyRow, p: PointWithJob, from: 'meshing' | 'queued', err: unknown) {
    const message = err instanceof Error ? err.message : String(err);
    this.deps.log.warn({ studyId: study.id, point: p.idx, err }, 'study point could not start');
    await this.deps.store.movePoint(study.id, p.idx, [from, 'pending'], {
      status: 'failed',
      error: message,
      finished_at: iso(),
    });
  }

  /** True when the convergence study is decided (report stored); otherwise its next, finer point is added. */
  private async nextConvergencePoint(
    study: StudyRow,
    spec: StudySpec,
    points: PointWithJob[],
  ): Promise<boolean> {
    const conv = spec.convergence;
    if (!conv) return true;
    const last = points[points.length - 1];
    const report = await this.storeReport(study, spec, points, false);
    const lastValue = last?.outputs ? (JSON.parse(last.outputs).values?.[conv.output] ?? null) : null;
    if (
      report.converged ||
      points.length >= conv.maxPoints ||
      !last ||
      last.status !== 'completed' ||
      lastValue === null
    ) {
      await this.storeReport(study, spec, points, true);
      return true;
    }
    const k = points.length;
    const size = convergenceSize(conv, k);
    const tets = Math.ceil((last.tetrahedra ?? 0) * conv.ratio ** 3);
    await this.deps.store.insertPoint({
      study_id: study.id,
      idx: k,
      parameters: JSON.stringify({ meshMaxSize: size }),
      status: 'pending',
      estimate_seconds: estimateSeconds(countsMesh(0, 0, tets), spec.config, this.deps.minEstimateSeconds),
      mesh_job_id: null,
      job_id: null,
      outputs: null,
      error: null,
      tetrahedra: null,
      finished_at: null,
    });
    this.wake();
    return false;
  }

  private async storeReport(study: StudyRow, spec: StudySpec, points: PointWithJob[], done: boolean) {
    const conv = spec.convergence;
    if (!conv) throw new Error('not a convergence study');
    const values: number[] = [];
    const sizes: number[] = [];
    for (const p of points) {
      const v = p.outputs ? JSON.parse(p.outputs).values?.[conv.output] : null;
      if (p.status !== 'completed' || typeof v !== 'number') break;
      values.push(v);
      sizes.push((JSON.parse(p.parameters) as { meshMaxSize: number }).meshMaxSize);
    }
    const report = convergenceReport(conv, values, sizes, done);
    await this.deps.store.updateStudy(study.id, { report: JSON.stringify(report) });
    return report;
  }
}
