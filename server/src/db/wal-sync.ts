import { type FileHandle, open, stat } from 'node:fs/promises';

/**
 * fsyncs a SQLite database's write-ahead log on libuv's thread pool, so a commit can be made durable
 * without the event loop waiting for the disk (better-sqlite3 runs on the event loop: a FULL commit's
 * fsync stalls every request, 4 ms median and 16–36 ms p99 on the development VM).
 *
 * Why this makes a `synchronous = NORMAL` commit as durable as a FULL one: in WAL mode a commit
 * appends its frames to the `-wal` file (write(), no fsync under NORMAL), and after a power cut SQLite
 * recovers every commit whose frames are in the file. fsync is per file, not per descriptor, so
 * syncing our own descriptor of that file flushes the frames SQLite wrote. A WAL reset after a
 * checkpoint is synced by SQLite itself (the checkpoint syncs the database file, and the reused WAL's
 * header is synced); a WAL deleted and made again (the last connection closed, the database opened
 * again) is noticed by its inode and the new one synced.
 */
export class WalSync {
  private handle: Promise<FileHandle> | null = null;
  private closed = false;

  constructor(readonly path: string) {}

  async sync(): Promise<void> {
    if (this.closed) return; // the database is closed: its last connection checkpointed the WAL
    for (let attempt = 0; attempt < 2; attempt++) {
      let handle: FileHandle;
      try {
        this.handle ??= open(this.path, 'r');
        handle = await this.handle;
      } catch (err) {
        this.handle = null;
        // No WAL: the last connection closed, which checkpoints it into the synced database file.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      // The three run at once on the thread pool: one wait for the caller, not three.
      const [, mine, current] = await Promise.all([
        handle.sync(),
        handle.stat(),
        stat(this.path).catch(() => null),
      ]);
      if (current && current.ino === mine.ino && current.dev === mine.dev) return;
      // The WAL was deleted (checkpointed and synced on close) and maybe made again: sync the new one.
      if (this.handle) this.handle = null;
      await handle.close().catch(() => undefined);
      if (!current || this.closed) return;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const handle = this.handle;
    this.handle = null;
    if (handle) await (await handle.catch(() => null))?.close();
  }
}
