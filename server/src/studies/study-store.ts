import { type Db, softWrite } from '../db/database.ts';
import type { StudiesTable, StudyPointsTable } from '../db/schema.ts';

export type StudyRow = StudiesTable;
export type PointRow = StudyPointsTable;
/** A point with what its jobs say (null columns when it has no job yet). */
export type PointWithJob = PointRow & {
  job_status: string | null;
  job_error: string | null;
  job_result: string | null;
  compute_seconds: number | null;
  cost_tokens: number | null;
  mesh_status: string | null;
  mesh_error: string | null;
  /** the content hash of the mesh the point's analysis ran on (its job's) */
  mesh_hash: string | null;
};

const FINAL_POINT: PointRow['status'][] = ['completed', 'failed', 'cancelled'];
export const isFinalPoint = (status: PointRow['status']) => FINAL_POINT.includes(status);

/** The studies and study_points tables. Point updates are conditional on the status they move from. */
export class StudyStore {
  constructor(private readonly db: Db) {}

  async insert(study: StudyRow, points: PointRow[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('studies').values(study).execute();
      // In chunks: SQLite limits the bound parameters of one statement.
      for (let i = 0; i < points.length; i += 50)
        await trx
          .insertInto('study_points')
          .values(points.slice(i, i + 50))
          .execute();
    });
  }

  async insertPoint(point: PointRow): Promise<void> {
    await this.db
      .insertInto('study_points')
      .values(point)
      .onConflict((c) => c.doNothing())
      .execute();
  }

  async find(id: string, ownerUserId: string): Promise<StudyRow | null> {
    return (
      (await this.db
        .selectFrom('studies')
        .selectAll()
        .where('id', '=', id)
        .where('owner_user_id', '=', ownerUserId)
        .executeTakeFirst()) ?? null
    );
  }

  async get(id: string): Promise<StudyRow | null> {
    return (await this.db.selectFrom('studies').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  async listForUser(userId: string, limit: number): Promise<StudyRow[]> {
    return this.db
      .selectFrom('studies')
      .selectAll()
      .where('owner_user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /** Studies whose points still move: running ones, and cancelled ones whose running points are stopping. */
  async active(): Promise<StudyRow[]> {
    return this.db.selectFrom('studies').selectAll().where('finished_at', 'is', null).execute();
  }

  async points(studyId: string): Promise<PointWithJob[]> {
    return this.pointsQuery(studyId).execute() as Promise<PointWithJob[]>;
  }

  /** The points after index `afterIdx`, at most `limit` (a download reads a study a page at a time). */
  async pointsPage(studyId: string, afterIdx: number, limit: number): Promise<PointWithJob[]> {
    return this.pointsQuery(studyId).where('p.idx', '>', afterIdx).limit(limit).execute() as Promise<
      PointWithJob[]
    >;
  }

  private pointsQuery(studyId: string) {
    return this.db
      .selectFrom('study_points as p')
      .leftJoin('jobs as j', 'j.id', 'p.job_id')
      .leftJoin('jobs as m', 'm.id', 'p.mesh_job_id')
      .selectAll('p')
      .select([
        'j.status as job_status',
        'j.error_message as job_error',
        'j.result_location as job_result',
        'j.compute_seconds as compute_seconds',
        'j.cost_tokens as cost_tokens',
        'j.mesh_hash as mesh_hash',
        'm.status as mesh_status',
        'm.error_message as mesh_error',
      ])
      .where('p.study_id', '=', studyId)
      .orderBy('p.idx');
  }

  /** Points of many studies at once (the study list's progress counts). */
  async statusCounts(studyIds: string[]): Promise<Map<string, Record<string, number>>> {
    const out = new Map<string, Record<string, number>>();
    if (studyIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('study_points')
      .select((eb) => ['study_id', 'status', eb.fn.countAll<number>().as('n')])
      .where('study_id', 'in', studyIds)
      .groupBy(['study_id', 'status'])
      .execute();
    for (const r of rows) {
      const counts = out.get(r.study_id) ?? {};
      counts[r.status] = Number(r.n);
      out.set(r.study_id, counts);
    }
    return out;
  }

  /**
   * Moves a point from `from` to `to` with other columns; false when it was not in `from` any more. `soft`:
   * a move a power cut may lose (no fsync of its own, database.ts softWrite) because it is redone from the
   * point's job after a restart (running, completed with its outputs) or made durable by the durable write
   * that follows it (a point's job id, before its job's row) — 4 fsyncs of the event loop per point.
   */
  async movePoint(
    studyId: string,
    idx: number,
    from: PointRow['status'][],
    values: Partial<Omit<PointRow, 'study_id' | 'idx'>>,
    opts: { soft?: boolean } = {},
  ): Promise<boolean> {
    const move = async (db: Db) => {
      const res = await db
        .updateTable('study_points')
        .set(values)
        .where('study_id', '=', studyId)
        .where('idx', '=', idx)
        .where('status', 'in', from)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    };
    return opts.soft ? softWrite(this.db, move) : move(this.db);
  }

  async updateStudy(id: string, values: Partial<Omit<StudyRow, 'id'>>): Promise<void> {
    await this.db.updateTable('studies').set(values).where('id', '=', id).execute();
  }

  /** Whether the job is a study point's analysis or meshing job. */
  async isPointJob(jobId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('study_points')
      .select('idx')
      .where((eb) => eb.or([eb('job_id', '=', jobId), eb('mesh_job_id', '=', jobId)]))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Estimates of a user's points that wait for a slot (admitted with their study, not yet jobs). */
  async waitingEstimate(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('study_points as p')
      .innerJoin('studies as s', 's.id', 'p.study_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('p.estimate_seconds'), eb.lit(0)).as('est'))
      .where('s.owner_user_id', '=', userId)
      .where('p.status', 'in', ['pending', 'meshing'])
      .executeTakeFirst();
    return Number(row?.est ?? 0);
  }

  /** Points of a user holding a slot before their analysis job exists (meshing for it). */
  async meshingCount(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('study_points as p')
      .innerJoin('studies as s', 's.id', 'p.study_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('s.owner_user_id', '=', userId)
      .where('p.status', '=', 'meshing')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
