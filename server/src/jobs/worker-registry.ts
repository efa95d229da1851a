import { hostname } from 'node:os';
import type { Db } from '../db/database.ts';

/** A worker not seen for this long is no longer counted. */
const LIVE_SECONDS = 20;

/** Queue workers (embedded or BullMQ, on any machine) announce themselves with a heartbeat row. */
export class WorkerRegistry {
  constructor(private readonly db: Db) {}

  async register(id: string, backend: string, slots: number): Promise<void> {
    const now = new Date().toISOString();
    const values = { id, backend, host: hostname(), slots, running: 0, started_at: now, last_seen_at: now };
    await this.db
      .insertInto('compute_workers')
      .values(values)
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .execute();
  }

  async heartbeat(id: string, running: number): Promise<void> {
    await this.db
      .updateTable('compute_workers')
      .set({ running, last_seen_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async unregister(id: string): Promise<void> {
    await this.db.deleteFrom('compute_workers').where('id', '=', id).execute();
  }

  async live(backend: string): Promise<{ workers: number; slots: number; running: number }> {
    const since = new Date(Date.now() - LIVE_SECONDS * 1000).toISOString();
    const row = await this.db
      .selectFrom('compute_workers')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.coalesce(eb.fn.sum<number>('slots'), eb.lit(0)).as('slots'),
        eb.fn.coalesce(eb.fn.sum<number>('running'), eb.lit(0)).as('running'),
      ])
      .where('backend', '=', backend)
      .where('last_seen_at', '>=', since)
      .executeTakeFirst();
    return {
      workers: Number(row?.n ?? 0),
      slots: Number(row?.slots ?? 0),
      running: Number(row?.running ?? 0),
    };
  }
}
