import { randomUUID } from 'node:crypto';
import { LENGTH_UNITS } from '@fieldline/contracts';
import type { Db } from '../db/database.ts';
import type { UploadsTable } from '../db/schema.ts';
import type { JobOwner } from '../jobs/job-owner.ts';
import type { UploadStore } from './upload-store.ts';

export type UploadRow = UploadsTable;
export type UploadFormat = UploadsTable['format'];

export interface NewUpload {
  owner: JobOwner;
  originalName: string;
  format: UploadFormat;
  sizeBytes: number;
  sha256: string;
  units: string;
  bodyCount: number;
  triangleCount: number;
}

/** What a meshing job needs to mesh an upload's original file: job.json `source` and the file. */
export interface MeshSource {
  input: { inputs: { file: string; format: UploadFormat; name: string }[]; units: string };
  file: { name: string; body: Buffer };
}

/** Uploads: rows in `uploads`, bytes in the UploadStore. Every read is scoped to its owner. */
export class UploadService {
  constructor(
    private readonly db: Db,
    readonly store: UploadStore,
  ) {}

  /** Stores `file` and records it. No row without bytes, no bytes without a row. */
  async create(upload: NewUpload, file: string): Promise<UploadRow> {
    const id = randomUUID();
    const row: UploadRow = {
      id,
      owner_user_id: upload.owner.userId,
      owner_session_hash: upload.owner.sessionHash,
      original_name: upload.originalName.slice(0, 255),
      format: upload.format,
      size_bytes: upload.sizeBytes,
      sha256: upload.sha256,
      units: upload.units,
      body_count: upload.bodyCount,
      triangle_count: upload.triangleCount,
      storage_key: `${id}.${upload.format}`,
      created_at: new Date().toISOString(),
      saved: 0,
    };
    await this.store.save(row.storage_key, file);
    try {
      await this.db.insertInto('uploads').values(row).execute();
    } catch (err) {
      await this.store.remove(row.storage_key);
      throw err;
    }
    return row;
  }

  /** The upload if `owner` owns it, else null (callers answer 404, never 403). */
  async findOwned(id: string, owner: JobOwner): Promise<UploadRow | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    let q = this.db.selectFrom('uploads').selectAll().where('id', '=', id);
    q = owner.userId
      ? q.where('owner_user_id', '=', owner.userId)
      : q.where('owner_session_hash', '=', owner.sessionHash ?? '');
    return (await q.executeTakeFirst()) ?? null;
  }

  /** Keeps an upload past the retention time (POST /api/uploads/{id}/save). */
  async markSaved(id: string): Promise<void> {
    await this.db.updateTable('uploads').set({ saved: 1 }).where('id', '=', id).execute();
  }

  /**
   * `units` is the length unit the user chose for an STL/OBJ model (it may have changed since the
   * upload); STEP files keep the unit they declare whatever is asked here.
   */
  async meshSource(upload: UploadRow, units?: string): Promise<MeshSource> {
    const name = `source.${upload.format}`;
    const unit = units && (LENGTH_UNITS as readonly string[]).includes(units) ? units : upload.units;
    const body = await this.store.read(upload.storage_key);
    if (!body) throw new Error(`the bytes of upload ${upload.id} are missing from storage`);
    return {
      input: { inputs: [{ file: name, format: upload.format, name: upload.original_name }], units: unit },
      file: { name, body },
    };
  }
}

/** Unsaved uploads created before `before` (ms): the retention sweeper deletes them. */
export async function expiredUploads(db: Db, before: number, limit = 500): Promise<UploadRow[]> {
  return db
    .selectFrom('uploads')
    .selectAll()
    .where('saved', '=', 0)
    .where('created_at', '<=', new Date(before).toISOString())
    .limit(limit)
    .execute();
}

/** Hands a guest's uploads to the account they sign in to (AccountService transfer hook). */
export async function transferSessionUploads(db: Db, sessionHash: string, userId: string): Promise<number> {
  const result = await db
    .updateTable('uploads')
    .set({ owner_user_id: userId, owner_session_hash: null })
    .where('owner_session_hash', '=', sessionHash)
    .where('owner_user_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
