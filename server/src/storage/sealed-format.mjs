// The sealed object format of EncryptedStorage, in plain JavaScript so that the storage worker thread
// (storage-worker.mjs, loaded without a TypeScript loader) and the server share one implementation.
// Layout: "FLE1" | 12-byte random nonce | AES-256-GCM ciphertext | 16-byte tag; the object key is bound
// as additional data, so a file moved to another key fails to open.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const MAGIC = Buffer.from('FLE1'); // Fieldline encrypted object, format 1
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;

/** Bytes a sealed object adds to its plaintext. */
export const SEAL_OVERHEAD = MAGIC.length + NONCE_BYTES + TAG_BYTES;

/**
 * @param {Uint8Array} key 32-byte AES key
 * @param {string} name the object key (bound as additional data)
 * @param {Uint8Array} plaintext
 * @returns {Buffer}
 */
export function seal(key, name, plaintext) {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  // One output buffer, written in place: no concatenation copy of a large object.
  const out = Buffer.allocUnsafe(SEAL_OVERHEAD + plaintext.length);
  MAGIC.copy(out, 0);
  nonce.copy(out, MAGIC.length);
  let at = MAGIC.length + NONCE_BYTES;
  at += cipher.update(plaintext).copy(out, at);
  at += cipher.final().copy(out, at);
  cipher.getAuthTag().copy(out, at);
  return out;
}

/**
 * @param {Uint8Array} key
 * @param {string} name
 * @param {Uint8Array} sealed
 * @returns {Buffer}
 */
export function open(key, name, sealed) {
  const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  if (bytes.length < SEAL_OVERHEAD || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new Error(`stored object ${name} is not in the encrypted format`);
  }
  const nonce = bytes.subarray(MAGIC.length, MAGIC.length + NONCE_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAAD(Buffer.from(name, 'utf8'));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  const body = decipher.update(bytes.subarray(MAGIC.length + NONCE_BYTES, bytes.length - TAG_BYTES));
  const rest = decipher.final();
  return rest.length === 0 ? body : Buffer.concat([body, rest]);
}
