import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

export interface JobOutcome {
  id: string;
  status: string;
  attempts: number;
  error_code: string | null;
  error_message: string | null;
  cost_tokens: number | null;
}

/**
 * Read-only views of a server process's database (its SQLite file, or the PostgreSQL at `databaseUrl`)
 * and data directory, for fault tests.
 */
export class DataDirView {
  private pool: pg.Pool | null = null;

  constructor(
    readonly dataDir: string,
    readonly databaseUrl?: string,
  ) {}

  private async query<T>(sql: string, ...params: unknown[]): Promise<T[]> {
    if (this.databaseUrl) {
      if (!this.pool) {
        this.pool = new pg.Pool({ connectionString: this.databaseUrl, max: 2 });
        this.pool.on('error', () => undefined); // an idle connection cut by a restart the test made
      }
      let n = 0;
      const text = sql.replace(/\?/g, () => `$${++n}`);
      // The test restarts the database itself: wait through that rather than fail the read.
      for (let tries = 0; ; tries++) {
        try {
          return (await this.pool.query(text, params)).rows as T[];
        } catch (err) {
          if (tries >= 60) throw err;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    }
    const db = new Database(join(this.dataDir, 'fieldline.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  }

  async close(): Promise<void> {
    await this.pool?.end();
    this.pool = null;
  }

  jobs(ids: string[]): Promise<JobOutcome[]> {
    return this.query<JobOutcome>(
      `SELECT id, status, attempts, error_code, error_message, cost_tokens FROM jobs WHERE id IN (${ids.map(() => '?').join(',')})`,
      ...ids,
    );
  }

  /** Every job in the database (a fault test's database holds its own jobs only). */
  async allJobIds(): Promise<string[]> {
    return (await this.query<{ id: string }>('SELECT id FROM jobs')).map((r) => r.id);
  }

  running(): Promise<{ id: string; attempts: number; progress: number; worker_id: string }[]> {
    return this.query("SELECT id, attempts, progress, worker_id FROM jobs WHERE status = 'running'");
  }

  /** job_charge ledger entries per job. */
  async charges(ids: string[]): Promise<Map<string, number>> {
    const rows = await this.query<{ job_id: string; n: number }>(
      `SELECT job_id, count(*) AS n FROM usage_ledger WHERE entry_type = 'job_charge' AND job_id IN (${ids.map(() => '?').join(',')}) GROUP BY job_id`,
      ...ids,
    );
    return new Map(rows.map((r) => [r.job_id, r.n]));
  }

  async completedRuns(ids: string[]): Promise<Map<string, number>> {
    const rows = await this.query<{ job_id: string; n: number }>(
      `SELECT job_id, count(*) AS n FROM job_runs WHERE outcome = 'completed' AND job_id IN (${ids.map(() => '?').join(',')}) GROUP BY job_id`,
      ...ids,
    );
    return new Map(rows.map((r) => [r.job_id, r.n]));
  }

  /** Files under WORK_DIR (default DATA_DIR/work). */
  workFiles(workDir = join(this.dataDir, 'work')): string[] {
    if (!existsSync(workDir)) return [];
    return readdirSync(workDir, { recursive: true }).map(String);
  }

  /** Stored objects that belong to no job or upload row, and half-written temporaries. */
  async orphanObjects(storageDir = join(this.dataDir, 'objects')): Promise<string[]> {
    const jobIds = new Set((await this.query<{ id: string }>('SELECT id FROM jobs')).map((r) => r.id));
    const uploadKeys = new Set(
      (await this.query<{ storage_key: string }>('SELECT storage_key FROM uploads')).map(
        (r) => r.storage_key,
      ),
    );
    const orphans: string[] = [];
    for (const sub of ['jobs', 'uploads']) {
      const dir = join(storageDir, sub);
      if (!existsSync(dir)) continue;
      for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (e.isDirectory()) continue;
        const rel = join(e.parentPath, e.name).slice(dir.length + 1);
        const owner = rel.split('/')[0] as string;
        const known = sub === 'jobs' ? jobIds.has(owner) : uploadKeys.has(rel);
        if (!known || e.name.endsWith('.tmp')) orphans.push(`${sub}/${rel}`);
      }
    }
    return orphans;
  }
}

/** Engine processes (python -m fieldline_engine …) working in `workDir`, by pid and job directory. */
export function engineProcesses(workDir: string): { pid: number; jobDir: string }[] {
  const found: { pid: number; jobDir: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    // A cold engine's arguments are NUL-separated; a standby process that took a job retitles itself
    // to the same command line as one string (engine/fieldline_engine/standby.py).
    const argv = cmdline.replace(/\0+$/, '').split(cmdline.includes(' --job ') ? ' ' : '\0');
    const at = argv.indexOf('--job');
    const jobDir = argv[at + 1];
    if (argv.includes('fieldline_engine') && at > 0 && jobDir?.startsWith(workDir))
      found.push({ pid: Number(entry), jobDir });
  }
  return found;
}

/** Counts the issue asks the fault suite to print, and the problems behind any non-zero bad count. */
export async function faultCounts(view: DataDirView, ids: string[]) {
  const jobs = await view.jobs(ids);
  const charges = await view.charges(ids);
  const runs = await view.completedRuns(ids);
  const completed = jobs.filter((j) => j.status === 'completed');
  const failed = jobs.filter((j) => j.status === 'failed');
  const lost = ids.filter(
    (id) => !jobs.some((j) => j.id === id && (j.status === 'completed' || j.status === 'failed')),
  );
  const doubleCharged = ids.filter((id) => (charges.get(id) ?? 0) > 1);
  const problems = [
    ...completed
      .filter((j) => charges.get(j.id) !== 1)
      .map((j) => `${j.id}: completed but charged ${charges.get(j.id) ?? 0} times`),
    ...completed
      .filter((j) => runs.get(j.id) !== 1)
      .map((j) => `${j.id}: ${runs.get(j.id) ?? 0} completed runs`),
    ...failed.filter((j) => !j.error_message).map((j) => `${j.id}: failed without a message`),
  ];
  return {
    counts: {
      submitted: ids.length,
      completed: completed.length,
      failed: failed.length,
      lost: lost.length,
      doubleCharged: doubleCharged.length,
    },
    jobs,
    problems,
  };
}
