import type { AppContext } from '../app-context.ts';

/**
 * Deletes the files of finished jobs that were not saved once their retention time has passed
 * (RETENTION_HOURS, default 24 h), as the landing page promises, and logs what it deleted.
 * The job rows stay: they carry the usage history.
 */
export class RetentionSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly ctx: AppContext,
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
  async sweep(now = Date.now()): Promise<{ jobs: string[]; objects: number }> {
    const deleted: string[] = [];
    let objects = 0;
    for (const job of await this.ctx.jobs.expiredFiles(now)) {
      try {
        objects += await this.ctx.jobs.files.removeAll(job.id);
        await this.ctx.jobs.markFilesDeleted(job.id);
        deleted.push(job.id);
        this.ctx.log.info(
          { jobId: job.id, owner: job.owner_user_id ?? 'guest', expiresAt: job.expires_at },
          'retention: deleted job files',
        );
      } catch (err) {
        this.ctx.log.warn({ err, jobId: job.id }, 'retention: could not delete job files');
      }
    }
    if (deleted.length > 0) this.ctx.log.info({ jobs: deleted.length, objects }, 'retention sweep done');
    return { jobs: deleted, objects };
  }
}
