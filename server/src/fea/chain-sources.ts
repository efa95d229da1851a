import type { ChainSource, ChainSourcesQuery } from '@fieldline/contracts';
import type { StoredResults } from '../jobs/fields-from.ts';
import type { JobOwner } from '../jobs/job-owner.ts';
import type { JobRow, JobService } from '../jobs/job-service.ts';
import { lengthOf } from '../jobs/job-storage.ts';

/** Which analyses' results hold each chainable field (engine: thermal/results.py, structural/results.py). */
const PRODUCERS: Record<ChainSourcesQuery['field'], readonly string[]> = {
  temperature: ['thermal', 'thermal-time', 'thermal-structural'],
  stress: ['structural', 'thermal-structural'],
};
/** The newest this many jobs on a mesh are offered (the form lists them by date). */
const LISTED = 20;
const CACHED = 500;

type Summary = Pick<ChainSource, 'frames' | 'max_temperature_K' | 'max_von_mises_Pa'>;

/**
 * The jobs a chained run may take fields from (GET /api/fea/chain-sources): the caller's completed analyses
 * on the same mesh (its content hash) whose results hold the field, newest first, each with its frame count
 * and peak temperature or stress. A job's results never change, so their summary is read once and kept.
 */
export class ChainSources {
  private readonly summaries = new Map<string, Summary>();

  constructor(private readonly jobs: JobService) {}

  async list(owner: JobOwner, query: ChainSourcesQuery): Promise<ChainSource[]> {
    const producers = PRODUCERS[query.field];
    const rows = (await this.jobs.completedOnMesh(owner, query.mesh_hash, 4 * LISTED))
      .filter((row) => producers.includes(row.analysis_type))
      .slice(0, LISTED);
    const out: ChainSource[] = [];
    for (const row of rows) {
      const summary = await this.summary(row).catch(() => null);
      if (!summary) continue; // results unreadable right now: not offered
      out.push({
        job_id: row.id,
        analysis_type: row.analysis_type,
        finished_at: row.finished_at,
        ...summary,
      });
    }
    return out;
  }

  private async summary(row: JobRow): Promise<Summary | null> {
    const known = this.summaries.get(row.id);
    if (known) return known;
    if (!row.result_location) return null;
    // Parsed on the storage worker thread (issue 37): quantities whole, long arrays as their lengths.
    const results = (await this.jobs.files.readSummary(row.result_location, {
      whole: ['quantities'],
    })) as StoredResults & { quantities?: Record<string, unknown> };
    const number = (key: string) => {
      const value = results.quantities?.[key];
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    };
    const summary: Summary = {
      frames: lengthOf(results.animation?.data) ?? 0,
      max_temperature_K: number('max_temperature_K'),
      max_von_mises_Pa: number('max_von_mises_Pa'),
    };
    if (this.summaries.size >= CACHED) this.summaries.delete(this.summaries.keys().next().value as string);
    this.summaries.set(row.id, summary);
    return summary;
  }
}
