/** Types of reply-format.mjs (plain JavaScript, shared with the storage worker thread). */
import type { BrotliOptions, ZlibOptions } from 'node:zlib';

export interface PackableReply {
  etag: string;
  length: number;
  gzip: Uint8Array;
  br: Uint8Array;
}
export declare function etagOf(body: string | Uint8Array): string;
export declare const GZIP_OPTIONS: ZlibOptions;
export declare function brotliOptions(size: number): BrotliOptions;
export declare function compressSync(raw: Buffer): { etag: string; gzip: Buffer; br: Buffer; length: number };
export declare function packReply(reply: PackableReply): Buffer;
