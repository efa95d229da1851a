import type { BlobStore, BlobStream } from './blob-store.ts';
import { open, seal } from './sealed-format.mjs';
import { OpenSealedStream, plaintextBytes } from './sealed-stream.ts';
import { type StorageTask, storageWorkers, toBuffer, transferable } from './worker-pool.ts';

/**
 * Objects at least this large are sealed and opened on a worker thread: AES-GCM over a results file of
 * tens of MB takes tens of milliseconds, which would stall every other request (issue 37). Smaller ones
 * cost less than the hand-off.
 */
export const OFFLOAD_BYTES = 512 * 1024;

/**
 * Every object is sealed with AES-256-GCM before it reaches the blob store (local disk or S3), so
 * stored bytes are never the plaintext (layout: sealed-format.mjs). The object key is bound as additional
 * data: a file moved to another key fails to decrypt.
 */
export class EncryptedStorage {
  /** Its own 32-byte memory, so handing it to the worker thread copies 32 bytes, not a buffer pool. */
  private readonly key: Uint8Array;

  constructor(
    readonly blobs: BlobStore,
    keyHex: string,
  ) {
    this.key = new Uint8Array(Buffer.from(keyHex, 'hex'));
    if (this.key.length !== 32) throw new Error('the storage key must be 32 bytes (64 hex characters)');
  }

  seal(key: string, plaintext: Buffer): Buffer {
    return seal(this.key, key, plaintext);
  }

  open(key: string, sealed: Buffer): Buffer {
    return open(this.key, key, sealed);
  }

  /**
   * Seals and stores. A large `plaintext` is copied to the worker thread, or moved there with `giveAway`
   * (the caller's buffer is then emptied: it must not read it again).
   */
  async put(key: string, plaintext: Buffer, opts: { giveAway?: boolean } = {}): Promise<void> {
    const sealed =
      plaintext.length < OFFLOAD_BYTES
        ? this.seal(key, plaintext)
        : toBuffer(
            await storageWorkers.run<Uint8Array>(
              'seal',
              { key: this.key, name: key, bytes: plaintext },
              opts.giveAway ? transferable(plaintext) : [],
            ),
          );
    await this.blobs.put(key, sealed);
  }

  /** Stores bytes a worker task already sealed for `key` (statusReply's packed reply). */
  putSealed(key: string, sealed: Buffer): Promise<void> {
    return this.blobs.put(key, sealed);
  }

  async get(key: string): Promise<Buffer | null> {
    const sealed = await this.blobs.get(key);
    if (sealed === null) return null;
    if (sealed.length < OFFLOAD_BYTES) return this.open(key, sealed);
    return toBuffer(
      await storageWorkers.run<Uint8Array>(
        'open',
        { key: this.key, name: key, bytes: sealed },
        transferable(sealed),
      ),
    );
  }

  /**
   * The plaintext of `key` as a stream, opened as it is read (OpenSealedStream): a download of a large
   * result never holds the object, sealed or open, and waits on its reader (backpressure). `bytes` is the
   * plaintext length. Null when the object does not exist. A tampered object errors at its end.
   */
  async getStream(key: string): Promise<BlobStream | null> {
    const sealed = await this.blobs.getStream(key);
    if (sealed === null) return null;
    const bytes = plaintextBytes(sealed.bytes);
    if (bytes === null) {
      sealed.body.destroy();
      throw new Error(`stored object ${key} is not in the encrypted format`);
    }
    const body = new OpenSealedStream(this.key, key);
    // Not pipeline(): the caller owns `body`'s end; an error on either side ends both.
    sealed.body.on('error', (err) => body.destroy(err));
    body.on('close', () => sealed.body.destroy());
    sealed.body.pipe(body);
    return { body, bytes };
  }

  /**
   * Runs a storage-worker task on the stored object `key`, opened on the worker thread (its plaintext
   * never reaches this thread); null when the object does not exist.
   */
  async onWorker<T>(task: StorageTask, key: string, args: Record<string, unknown>): Promise<T | null> {
    const sealed = await this.blobs.get(key);
    if (sealed === null) return null;
    return storageWorkers.run<T>(
      task,
      { ...args, key: this.key, name: key, bytes: sealed },
      transferable(sealed),
    );
  }

  delete(key: string): Promise<void> {
    return this.blobs.delete(key);
  }

  deletePrefix(prefix: string): Promise<number> {
    return this.blobs.deletePrefix(prefix);
  }

  list(prefix: string): Promise<string[]> {
    return this.blobs.list(prefix);
  }
}
