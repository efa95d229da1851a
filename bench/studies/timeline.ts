// Where a study's time goes besides its points' runs, from the server's own SQLite file (embedded default):
// the jobs' queued/started/finished times, each point's row, and the study's created/finished times.
import { createRequire } from 'node:module';
import { join } from 'node:path';

export interface StudyTimeline {
  /** study row written → its first point's job queued */
  toFirstQueuedMs: number;
  /** per point after the first (one slot): the previous job finished → this one started */
  startGapsMs: number[];
  /** per point: its job finished → its outputs in the table (overlaps the next point's run) */
  intoTableMs: number[];
  /** the last point's outputs in the table → the study marked finished */
  lastToFinishedMs: number;
  /** when the server marked the study finished (ms since the epoch, the machine's clock) */
  finishedEpochMs: number;
}

const ms = (iso: string | null) => (iso ? Date.parse(iso) : Number.NaN);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

export function readTimeline(dataDir: string, studyId: string, slots: number): StudyTimeline {
  const Database = createRequire(import.meta.url)('better-sqlite3');
  const db = new Database(join(dataDir, 'fieldline.sqlite'), { readonly: true });
  try {
    const study = db.prepare('select created_at, finished_at from studies where id = ?').get(studyId);
    const points = db
      .prepare(
        `select j.queued_at, j.started_at, j.finished_at as job_done, p.finished_at as row_done
         from study_points p join jobs j on j.id = p.job_id where p.study_id = ? order by j.started_at`,
      )
      .all(studyId) as { queued_at: string; started_at: string; job_done: string; row_done: string }[];
    const startGapsMs =
      slots === 1
        ? points
            .slice(1)
            .map((p, i) => ms(p.started_at) - Math.max(ms(p.queued_at), ms(points[i]?.job_done ?? null)))
        : [];
    return {
      toFirstQueuedMs: Math.min(...points.map((p) => ms(p.queued_at))) - ms(study.created_at),
      startGapsMs,
      intoTableMs: points.map((p) => ms(p.row_done) - ms(p.job_done)),
      lastToFinishedMs: ms(study.finished_at) - Math.max(...points.map((p) => ms(p.row_done))),
      finishedEpochMs: ms(study.finished_at),
    };
  } finally {
    db.close();
  }
}

export function describeTimeline(t: StudyTimeline, pointRunS: number): string {
  const gap = median(t.startGapsMs);
  const parts = [
    `study row → first point queued ${t.toFirstQueuedMs} ms`,
    t.startGapsMs.length
      ? `previous point finished → next started median ${gap} ms (max ${Math.max(...t.startGapsMs)}) = ${((100 * gap) / (1000 * pointRunS)).toFixed(1)} % of a point's run`
      : '',
    `job finished → outputs in the table median ${median(t.intoTableMs)} ms (max ${Math.max(...t.intoTableMs)})`,
    `last outputs → study finished ${t.lastToFinishedMs} ms`,
  ];
  return parts.filter(Boolean).join('; ');
}
