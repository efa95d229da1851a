import { createDecipheriv, type DecipherGCM } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { MAGIC, NONCE_BYTES, SEAL_OVERHEAD, TAG_BYTES } from './sealed-format.mjs';

const HEADER_BYTES = MAGIC.length + NONCE_BYTES;

/**
 * Opens a sealed object (sealed-format.mjs) as it streams past: the header gives the nonce, the ciphertext
 * is deciphered chunk by chunk (AES-GCM: tens of microseconds per 64 KB chunk, so no turn of the event loop
 * holds the whole object), and the last 16 bytes, held back, are the tag checked at the end. A tampered or
 * moved object therefore fails only at its end: the stream errors and the response is cut short, never
 * completed (a client sees a broken transfer, not wrong bytes accepted as whole).
 */
export class OpenSealedStream extends Transform {
  private decipher: DecipherGCM | null = null;
  /** Bytes not yet passed on: the header until it is whole, then (at most) the last TAG_BYTES seen. */
  private held: Buffer = Buffer.alloc(0);

  constructor(
    private readonly key: Uint8Array,
    private readonly name: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      if (!this.decipher) {
        const bytes = this.held.length ? Buffer.concat([this.held, chunk]) : chunk;
        if (bytes.length < HEADER_BYTES) {
          this.held = bytes;
          done();
          return;
        }
        if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw this.notSealed();
        this.decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(MAGIC.length, HEADER_BYTES));
        this.decipher.setAAD(Buffer.from(this.name, 'utf8'));
        this.held = Buffer.alloc(0);
        this.decipherAllButTag(bytes.subarray(HEADER_BYTES));
      } else this.decipherAllButTag(chunk);
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  /**
   * Deciphers what is held and all of `bytes` but its last TAG_BYTES, which are held back (they may be the
   * tag). No copy of a chunk: only the few held bytes are.
   */
  private decipherAllButTag(bytes: Buffer): void {
    const decipher = this.decipher as DecipherGCM;
    const all = this.held.length + bytes.length;
    if (all <= TAG_BYTES) {
      this.held = Buffer.concat([this.held, bytes]);
      return;
    }
    const fromHeld = Math.min(this.held.length, all - TAG_BYTES);
    const cut = Math.max(0, bytes.length - TAG_BYTES);
    const out: Buffer[] = [];
    if (fromHeld > 0) out.push(decipher.update(this.held.subarray(0, fromHeld)));
    if (cut > 0) out.push(decipher.update(bytes.subarray(0, cut)));
    this.held = Buffer.concat([this.held.subarray(fromHeld), bytes.subarray(cut)]);
    for (const plain of out) if (plain.length) this.push(plain);
  }

  override _flush(done: TransformCallback): void {
    try {
      if (!this.decipher || this.held.length < TAG_BYTES) throw this.notSealed();
      this.decipher.setAuthTag(this.held);
      const rest = this.decipher.final();
      if (rest.length) this.push(rest);
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  private notSealed(): Error {
    return new Error(`stored object ${this.name} is not in the encrypted format`);
  }
}

/** The plaintext length of a sealed object of `sealedBytes`, or null when it cannot be one. */
export function plaintextBytes(sealedBytes: number): number | null {
  return sealedBytes >= SEAL_OVERHEAD ? sealedBytes - SEAL_OVERHEAD : null;
}
