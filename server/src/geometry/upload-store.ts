import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { EncryptedStorage } from '../storage/encrypted-storage.ts';

/**
 * Where the bytes of uploaded geometry live. Everything that reads or writes upload files goes
 * through this interface. Keys are generated ids, never user-supplied names.
 */
export interface UploadStore {
  /** A fresh private local directory for incoming bytes and the parser's scratch work. */
  scratchDir(): Promise<string>;
  /** Keeps the finished local `file` under `key` (the file itself is left to the caller). */
  save(key: string, file: string): Promise<void>;
  read(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
}

/**
 * Uploads in the application's object storage (`uploads/<key>`): sealed with AES-256-GCM like job
 * files, on the local disk or in S3, so any worker machine can mesh them.
 */
export class StorageUploadStore implements UploadStore {
  constructor(
    private readonly storage: EncryptedStorage,
    private readonly scratchRoot: string,
  ) {}

  private key(key: string): string {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(key)) throw new Error(`invalid upload key "${key}"`);
    return `uploads/${key}`;
  }

  async scratchDir(): Promise<string> {
    const dir = join(this.scratchRoot, `upload-${randomUUID()}`);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  async save(key: string, file: string): Promise<void> {
    await this.storage.put(this.key(key), await readFile(file));
  }

  read(key: string): Promise<Buffer | null> {
    return this.storage.get(this.key(key));
  }

  async remove(key: string): Promise<void> {
    await this.storage.delete(this.key(key));
  }
}

/** Removes a scratch directory made by `scratchDir()`. */
export async function removeScratch(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
