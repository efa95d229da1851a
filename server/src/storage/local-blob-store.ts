import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { assertSafeKey, type BlobStore, type BlobStream } from './blob-store.ts';

/** A directory on local disk (the default). Files are written via a temporary name and renamed. */
export class LocalBlobStore implements BlobStore {
  readonly backend = 'local' as const;

  constructor(private readonly dir: string) {}

  get location(): string {
    return this.dir;
  }

  private path(key: string): string {
    assertSafeKey(key);
    return join(this.dir, key);
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, body, { mode: 0o600 });
      await rename(tmp, file);
    } catch (err) {
      // A full disk leaves a partial temporary file: remove it, so nothing half-written stays behind.
      await rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async getStream(key: string): Promise<BlobStream | null> {
    // Opened first: a later rename over the key (a re-run's results) leaves this reader its own file.
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(this.path(key), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      const { size } = await handle.stat();
      return { body: handle.createReadStream({ highWaterMark: 64 * 1024 }), bytes: size };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    const keys = await this.list(prefix);
    await rm(this.path(prefix), { recursive: true, force: true });
    return keys.length;
  }

  async list(prefix: string): Promise<string[]> {
    const root = this.path(prefix);
    try {
      const entries = await readdir(root, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => e.isFile() && !e.name.endsWith('.tmp'))
        .map((e) => relative(this.dir, join(e.parentPath, e.name)))
        .sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }
}
