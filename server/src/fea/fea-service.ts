import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type {
  AnalysisConfig,
  DownloadFormat,
  HealthResponse,
  JobStatusResponse,
  MeshData,
  SubmitResponse,
} from '@fieldline/contracts';
import type { AppContext } from '../app-context.ts';
import { HttpError } from '../http/errors.ts';
import type { JobOwner } from '../jobs/job-owner.ts';
import type { JobRow } from '../jobs/job-service.ts';

const invalidMesh = (message: string) => new HttpError(400, 'invalid_mesh', message, { status: 'error' });

/** Submit, status, results: the simulator's job calls (spec 001 §7). */
export class FeaService {
  constructor(private readonly ctx: AppContext) {}

  async health(): Promise<HealthResponse> {
    const [engine, queue] = await Promise.all([this.ctx.engineHealth.get(), this.ctx.queue.stats()]);
    return { status: engine.available ? 'ok' : 'degraded', engine, queue };
  }

  async submit(owner: JobOwner, mesh: MeshData, config: AnalysisConfig): Promise<SubmitResponse> {
    const meshing = config.meshingOnly || config.analysisType === 'tetra-only';
    validateMesh(mesh, meshing);
    const job = await this.ctx.jobs.create({
      owner,
      kind: meshing ? 'meshing' : 'analysis',
      analysisType: config.analysisType,
      queue: 'standard',
      input: { mesh_data: mesh, config },
    });
    await this.ctx.queue.enqueue(job.id, job.queue);
    return {
      status: 'queued',
      job_id: job.id,
      message: meshing ? 'Meshing job queued' : 'Analysis job queued',
    };
  }

  async status(jobId: string, owner: JobOwner): Promise<JobStatusResponse | null> {
    const job = await this.ctx.jobs.findOwned(jobId, owner);
    if (!job) return null;
    const response: JobStatusResponse = {
      job_id: job.id,
      status: job.status,
      progress: job.progress,
      message: job.message ?? undefined,
    };
    if (job.status === 'failed' || job.status === 'cancelled')
      response.error = job.error_message ?? 'Job failed';
    if (job.status === 'completed' && job.result_location) {
      response.results = await this.ctx.jobs.files.readJson(job.result_location);
    }
    return response;
  }

  async resultsFile(jobId: string, owner: JobOwner): Promise<Buffer | null> {
    const job = await this.ctx.jobs.findOwned(jobId, owner);
    if (job?.status !== 'completed' || !job.result_location) return null;
    return readFile(this.ctx.jobs.files.absolute(job.result_location));
  }

  /** results.bin, the viewer's binary twin of results.json (docs/results-binary.md), if the engine wrote it. */
  async resultsBinary(jobId: string, owner: JobOwner): Promise<Buffer | null> {
    const job = await this.ctx.jobs.findOwned(jobId, owner);
    if (job?.status !== 'completed' || !job.result_location) return null;
    const path = join(dirname(this.ctx.jobs.files.absolute(job.result_location)), 'results.bin');
    try {
      return await readFile(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /** The engine's S-parameter exports (`sparameters.sNp`, `sparameters.csv`) of a completed job. */
  async networkExport(
    jobId: string,
    owner: JobOwner,
    format: Exclude<DownloadFormat, 'json'>,
  ): Promise<{ body: Buffer; fileName: string; contentType: string } | null> {
    const job = await this.ctx.jobs.findOwned(jobId, owner);
    if (job?.status !== 'completed') return null;
    const dir = this.ctx.jobs.files.dir(job.id);
    const names = await readdir(dir).catch(() => [] as string[]);
    const name = names.find((n) =>
      format === 'csv' ? n === 'sparameters.csv' : /^sparameters\.s\d+p$/.test(n),
    );
    if (!name) return null;
    const ext = name.slice(name.indexOf('.'));
    return {
      body: await readFile(join(dir, name)),
      fileName: `fea_sparameters_${jobId}${ext}`,
      contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'text/plain; charset=us-ascii',
    };
  }

  async resultsInfo(jobId: string, owner: JobOwner): Promise<Record<string, unknown> | null> {
    const job = await this.ctx.jobs.findOwned(jobId, owner);
    if (!job) return null;
    return {
      job_id: job.id,
      status: job.status,
      kind: job.kind,
      analysis_type: job.analysis_type,
      queued_at: job.queued_at,
      started_at: job.started_at,
      finished_at: job.finished_at,
      compute_seconds: job.compute_seconds,
      files: job.status === 'completed' ? await this.listFiles(job) : [],
      contents:
        job.status === 'completed' && job.result_location
          ? describeResults(await this.ctx.jobs.files.readJson(job.result_location))
          : null,
      error: job.error_message,
    };
  }

  private async listFiles(job: JobRow): Promise<{ name: string; bytes: number }[]> {
    const dir = this.ctx.jobs.files.dir(job.id);
    const names = (await readdir(dir)).filter((n) => n !== 'job.json');
    return Promise.all(names.map(async (name) => ({ name, bytes: (await stat(join(dir, name))).size })));
  }
}

const FIELD_KEYS = ['efields', 'hfields', 'jfields', 'efields_imag', 'hfields_imag', 'potential'] as const;

/** What a results file holds, for /api/fea/results/{id}/info: analysis, fields, derived quantities, extras. */
export function describeResults(results: unknown): Record<string, unknown> | null {
  if (!results || typeof results !== 'object') return null;
  const r = results as Record<string, unknown>;
  const info = (r.solver_info ?? {}) as Record<string, unknown>;
  const magnitudes = (r.field_magnitudes ?? {}) as Record<string, unknown>;
  const grid = r.grid as { resolution?: unknown } | undefined;
  const animation = r.animation as { frames?: unknown; kind?: unknown } | undefined;
  return {
    analysis: info.analysis ?? null,
    frequency: info.frequency ?? null,
    elements: info.elements ?? null,
    matrix_size: info.matrix_size ?? null,
    vertices: Array.isArray(r.vertices) ? r.vertices.length : 0,
    field_magnitudes: Object.keys(magnitudes),
    fields: FIELD_KEYS.filter((k) => k in r),
    quantities: Object.keys((r.quantities ?? {}) as Record<string, unknown>),
    complex_fields: r.complex_fields === true,
    grid: grid ? { resolution: grid.resolution ?? null } : null,
    animation: animation ? { frames: animation.frames ?? null, kind: animation.kind ?? null } : null,
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
  if (mesh.faces.some((f) => f.length < 3 || f.some((i) => i >= n))) {
    throw invalidMesh('Invalid mesh data: a face refers to a missing vertex.');
  }
}
