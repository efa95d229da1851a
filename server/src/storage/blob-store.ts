import type { Readable } from 'node:stream';

/**
 * Where bytes live, without meaning: a local directory or an S3-compatible bucket. Keys are
 * slash-separated relative names the server generates (`jobs/<uuid>/job.json`), never user input.
 */
export interface BlobStore {
  readonly backend: 'local' | 's3';
  /** Where the store is, for health and debug output (no credentials). */
  readonly location: string;
  put(key: string, body: Buffer): Promise<void>;
  /** The stored bytes, or null when the key does not exist. */
  get(key: string): Promise<Buffer | null>;
  /**
   * The stored bytes as a stream, read as the reader asks for them (backpressure), with their length; null
   * when the key does not exist (known before any byte, so a caller can still answer 404).
   */
  getStream(key: string): Promise<BlobStream | null>;
  delete(key: string): Promise<void>;
  /** Deletes every key under `prefix/`; returns how many were deleted. */
  deletePrefix(prefix: string): Promise<number>;
  list(prefix: string): Promise<string[]>;
}

export interface BlobStream {
  body: Readable;
  bytes: number;
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Refuses keys that could escape the store (`..`, absolute paths, odd characters). */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.split('/').includes('..')) throw new Error(`unsafe storage key: ${key}`);
}
