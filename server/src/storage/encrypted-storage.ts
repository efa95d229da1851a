import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { BlobStore } from './blob-store.ts';

const MAGIC = Buffer.from('FLE1'); // Fieldline encrypted object, format 1
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Every object is sealed with AES-256-GCM before it reaches the blob store (local disk or S3), so
 * stored bytes are never the plaintext. Layout: "FLE1" | 12-byte random nonce | ciphertext | 16-byte tag.
 * The object key is bound as additional data: a file moved to another key fails to decrypt.
 */
export class EncryptedStorage {
  private readonly key: Buffer;

  constructor(
    readonly blobs: BlobStore,
    keyHex: string,
  ) {
    this.key = Buffer.from(keyHex, 'hex');
    if (this.key.length !== 32) throw new Error('the storage key must be 32 bytes (64 hex characters)');
  }

  seal(key: string, plaintext: Buffer): Buffer {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(key, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([MAGIC, nonce, body, cipher.getAuthTag()]);
  }

  open(key: string, sealed: Buffer): Buffer {
    if (sealed.length < MAGIC.length + NONCE_BYTES + TAG_BYTES || !sealed.subarray(0, 4).equals(MAGIC)) {
      throw new Error(`stored object ${key} is not in the encrypted format`);
    }
    const nonce = sealed.subarray(4, 4 + NONCE_BYTES);
    const tag = sealed.subarray(sealed.length - TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, nonce);
    decipher.setAAD(Buffer.from(key, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([
      decipher.update(sealed.subarray(4 + NONCE_BYTES, sealed.length - TAG_BYTES)),
      decipher.final(),
    ]);
  }

  async put(key: string, plaintext: Buffer): Promise<void> {
    await this.blobs.put(key, this.seal(key, plaintext));
  }

  async get(key: string): Promise<Buffer | null> {
    const sealed = await this.blobs.get(key);
    return sealed === null ? null : this.open(key, sealed);
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
