import type { Db } from '../db/database.ts';
import type { JobOwner } from '../jobs/job-owner.ts';
import type { JobRow, JobService } from '../jobs/job-service.ts';

/** The file the engine's `mesh` command writes into the job directory when meshing fails. */
export const PROBLEM_MARKERS_FILE = 'tetra_output.json';
/** How many of the caller's most recent failed meshing jobs to look through for markers. */
const RECENT_FAILURES = 5;

/**
 * Problem markers (spec 001 §3) of failed meshing jobs, always scoped to the caller: per job, and
 * "the latest one" for the spec's GET /results/tetra_output.json.
 */
export class ProblemMarkersService {
  constructor(
    private readonly jobs: JobService,
    private readonly db: Db,
  ) {}

  /** Raw JSON of the job's markers (the caller's: see `ownedJob`), or null when it has none. */
  async forJob(job: JobRow): Promise<string | null> {
    if (job.kind !== 'meshing' || job.status !== 'failed') return null;
    return this.read(job);
  }

  /** The markers of `?job_id=` for GET /results/tetra_output.json, or null when it is not the owner's. */
  async forJobId(jobId: string, owner: JobOwner): Promise<string | null> {
    const job = await this.jobs.findOwned(jobId, owner);
    return job ? this.forJob(job) : null;
  }

  async latest(owner: JobOwner): Promise<string | null> {
    let q = this.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', 'meshing')
      .where('status', '=', 'failed');
    q = owner.userId
      ? q.where('owner_user_id', '=', owner.userId)
      : q.where('owner_session_hash', '=', owner.sessionHash ?? '');
    const jobs = await q
      .orderBy('finished_at', 'desc')
      .orderBy('queued_at', 'desc')
      .limit(RECENT_FAILURES)
      .execute();
    for (const job of jobs) {
      const markers = await this.read(job);
      if (markers) return markers;
    }
    return null;
  }

  async has(job: Pick<JobRow, 'id' | 'kind' | 'status' | 'files_deleted_at'>): Promise<boolean> {
    return job.kind === 'meshing' && job.status === 'failed' && (await this.read(job)) !== null;
  }

  private async read(job: Pick<JobRow, 'id' | 'files_deleted_at'>): Promise<string | null> {
    if (job.files_deleted_at) return null; // removed with the job's files after the retention time
    const body = await this.jobs.files.readResult(job.id, PROBLEM_MARKERS_FILE);
    return body ? body.toString('utf8') : null;
  }
}
