import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/database.ts';
import { expiredUploads, type UploadService } from './geometry/upload-service.ts';
import type { JobService } from './jobs/job-service.ts';

/** What the sweeper deletes from, and RETENTION_HOURS. */
export interface RetentionDeps {
  db: Db;
  jobs: JobService;
  uploads: UploadService;
  log: FastifyBaseLogger;
  retentionHours: number;
}

/**
 * Deletes what users did not save once the retention time has passed (RETENTION_HOURS, default 24 h),
 * as the landing page promises, and logs each deletion: uploads (bytes and row) RETENTION_HOURS after
 * they were created, and the files of finished jobs RETENTION_HOURS after they finished (the job rows
 * stay: they carry the usage history).
 */
export class RetentionSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly deps: RetentionDeps,
    private readonly intervalSeconds: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.sweep().finally(() => (this.running = null));
    }, this.intervalSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One pass; `now` is injectable so tests can move past the retention time. */
  async sweep(now = Date.now()): Promise<{ jobs: string[]; uploads: string[]; objects: number }> {
    const deleted: string[] = [];
    const uploads: string[] = [];
    let objects = 0;
    // Uploads: the bytes and the row go together (a model nobody saved is not kept in any form).
    const cutoff = now - this.deps.retentionHours * 3600_000;
    for (const upload of await expiredUploads(this.deps.db, cutoff)) {
      try {
        await this.deps.uploads.store.remove(upload.storage_key);
        await this.deps.db.deleteFrom('uploads').where('id', '=', upload.id).where('saved', '=', 0).execute();
        uploads.push(upload.id);
        objects++;
        this.deps.log.info(
          { uploadId: upload.id, owner: upload.owner_user_id ?? 'guest', createdAt: upload.created_at },
          'retention: deleted upload',
        );
      } catch (err) {
        this.deps.log.warn({ err, uploadId: upload.id }, 'retention: could not delete upload');
      }
    }
    for (const job of await this.deps.jobs.expiredFiles(now)) {
      try {
        objects += await this.deps.jobs.files.removeAll(job.id);
        await this.deps.jobs.markFilesDeleted(job.id);
        deleted.push(job.id);
        this.deps.log.info(
          { jobId: job.id, owner: job.owner_user_id ?? 'guest', expiresAt: job.expires_at },
          'retention: deleted job files',
        );
      } catch (err) {
        this.deps.log.warn({ err, jobId: job.id }, 'retention: could not delete job files');
      }
    }
    if (deleted.length + uploads.length > 0)
      this.deps.log.info({ jobs: deleted.length, uploads: uploads.length, objects }, 'retention sweep done');
    return { jobs: deleted, uploads, objects };
  }
}
