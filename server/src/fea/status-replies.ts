import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { EncryptedStorage } from '../storage/encrypted-storage.ts';
import { toBuffer } from '../storage/worker-pool.ts';
import { brotliOptions, etagOf, GZIP_OPTIONS, packReply } from './reply-format.mjs';

export { etagOf, packReply };

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

export type ContentEncoding = 'br' | 'gzip' | 'identity';

/** A completed job's status reply, serialised once and kept compressed both ways. */
export interface CompressedReply {
  etag: string;
  gzip: Buffer;
  br: Buffer;
  /** Bytes of the uncompressed JSON. */
  length: number;
}

/** A status reply ready to send: small replies as JSON text, a completed job's as compressed bodies. */
export type StatusReply =
  | { kind: 'json'; etag: string; body: string }
  | { kind: 'compressed'; etag: string; body: CompressedReply };

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison; `*` matches any current reply. */
export function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const mine = opaque(etag);
  return value.split(',').some((tag) => opaque(tag) === mine);
}

/** The best encoding the client accepts: br, then gzip, else identity (a `q=0` refuses a coding). */
export function pickEncoding(header: string | string[] | undefined): ContentEncoding {
  if (!header) return 'identity';
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

/** A reply compressed on the zlib thread pool (the storage worker builds completed jobs' replies). */
export async function compressReply(json: string): Promise<CompressedReply> {
  const raw = Buffer.from(json, 'utf8');
  const [gz, br] = await Promise.all([gzip(raw, GZIP_OPTIONS), brotli(raw, brotliOptions(raw.length))]);
  return { etag: etagOf(raw), gzip: gz, br, length: raw.length };
}

/**
 * The uncompressed body, for a client that accepts neither gzip nor br (rare: browsers send both), as a stream (`reply.length` bytes). zlib inflates only as the reader takes the
 * output, so a slow or stalled reader holds a stream buffer's worth (16 kB) of a reply that may be tens
 * of MB, instead of a whole uncompressed copy per connection; the compressed input is the shared copy.
 */
export function identityStream(reply: CompressedReply): Readable {
  const inflate = zlib.createGunzip();
  inflate.end(reply.gzip);
  return inflate;
}

/** Stored beside the job's results: `jobs/<id>/status-reply`, sealed like every stored object. */
export const storedReplyKey = (jobId: string) => `jobs/${jobId}/status-reply`;

/** Reads packReply's layout (reply-format.mjs): uint32 header length | header JSON | gzip | br. */
export function unpackReply(packed: Buffer): CompressedReply | null {
  try {
    const headerLength = packed.readUInt32BE(0);
    const header = JSON.parse(packed.subarray(4, 4 + headerLength).toString('utf8')) as {
      v: number;
      etag: string;
      length: number;
      gzip: number;
    };
    if (header.v !== 1) return null;
    const start = 4 + headerLength;
    return {
      etag: header.etag,
      length: header.length,
      gzip: packed.subarray(start, start + header.gzip),
      br: packed.subarray(start + header.gzip),
    };
  } catch {
    return null;
  }
}

/** What the storage worker's `statusReply` task sends back (storage-worker.mjs). */
interface BuiltReply {
  etag: string;
  length: number;
  gzip: Uint8Array;
  br: Uint8Array;
  /** The packed reply, sealed for `storedReplyKey`. */
  sealed: Uint8Array;
}

/**
 * Completed jobs' status replies: built once (JSON serialised once, compressed once), stored beside
 * the results so another process or a restart reads them without parsing anything, and kept in
 * memory in a least-recently-used cache bounded by bytes. Concurrent first requests share one build.
 * A build runs on the storage worker thread (the results file is opened, parsed, serialised under the
 * reply's head, compressed and sealed there): a results file of tens of MB stalls no request (issue 37).
 */
export class CompletedReplies {
  private readonly lru = new Map<string, CompressedReply>();
  private readonly building = new Map<string, Promise<CompressedReply>>();
  private bytes = 0;

  constructor(
    private readonly storage: EncryptedStorage,
    private readonly maxBytes: number,
  ) {}

  get cachedBytes(): number {
    return this.bytes;
  }

  /**
   * The reply from memory, else from storage, else built (and stored) from the results file `version`
   * (the job's result_location) under `head` (the status fields before `results`, in their order).
   */
  async get(jobId: string, version: string, head: () => Record<string, unknown>): Promise<CompressedReply> {
    const hit = this.peek(jobId, version);
    if (hit) return hit;
    const key = `${jobId}\n${version}`;
    let pending = this.building.get(key);
    if (!pending) {
      pending = this.load(jobId, version, head).finally(() => this.building.delete(key));
      this.building.set(key, pending);
    }
    const reply = await pending;
    this.remember(key, reply);
    return reply;
  }

  /** The reply if it is in memory now (no storage read, no build): the status fast lane's lookup. */
  peek(jobId: string, version: string): CompressedReply | undefined {
    const key = `${jobId}\n${version}`;
    const hit = this.lru.get(key);
    if (hit) {
      this.lru.delete(key); // most recently used last
      this.lru.set(key, hit);
    }
    return hit;
  }

  /** Drops a job's reply (its files were deleted). */
  forget(jobId: string): void {
    for (const [key, reply] of this.lru)
      if (key.startsWith(`${jobId}\n`)) {
        this.lru.delete(key);
        this.bytes -= reply.gzip.length + reply.br.length;
      }
  }

  private async load(
    jobId: string,
    resultsKey: string,
    head: () => Record<string, unknown>,
  ): Promise<CompressedReply> {
    const stored = await this.storage.get(storedReplyKey(jobId)).catch(() => null);
    const unpacked = stored ? unpackReply(stored) : null;
    if (unpacked) return unpacked;
    const built = await this.storage.onWorker<BuiltReply>('statusReply', resultsKey, {
      head: head(),
      replyName: storedReplyKey(jobId),
    });
    if (!built) throw new Error(`stored object ${resultsKey} is missing`);
    await this.storage.putSealed(storedReplyKey(jobId), toBuffer(built.sealed)).catch(() => undefined);
    return { etag: built.etag, length: built.length, gzip: toBuffer(built.gzip), br: toBuffer(built.br) };
  }

  private remember(key: string, reply: CompressedReply): void {
    if (this.lru.has(key)) return;
    const size = reply.gzip.length + reply.br.length;
    if (size > this.maxBytes) return;
    this.lru.set(key, reply);
    this.bytes += size;
    for (const [oldKey, old] of this.lru) {
      if (this.bytes <= this.maxBytes) break;
      this.lru.delete(oldKey);
      this.bytes -= old.gzip.length + old.br.length;
    }
  }
}
