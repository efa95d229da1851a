// A completed job's status reply as it is stored and sent: its ETag, its gzip and brotli bodies and the
// packed layout stored beside the results. Plain JavaScript, so that the storage worker thread (which
// builds large replies off the event loop, storage-worker.mjs) and the server share one implementation.
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';

/**
 * A weak validator of the reply's exact bytes (weak: the same JSON is sent gzip, br or identity).
 * @param {string | Uint8Array} body
 */
export function etagOf(body) {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

export const GZIP_OPTIONS = { level: 6 };

/** @param {number} size the uncompressed length */
export function brotliOptions(size) {
  return {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  };
}

/**
 * The reply of `raw` (the JSON's UTF-8 bytes), compressed both ways, synchronously (a worker thread's use).
 * @param {Buffer} raw
 */
export function compressSync(raw) {
  return {
    etag: etagOf(raw),
    gzip: zlib.gzipSync(raw, GZIP_OPTIONS),
    br: zlib.brotliCompressSync(raw, brotliOptions(raw.length)),
    length: raw.length,
  };
}

/**
 * Layout: uint32 header length | header JSON {v, etag, length, gzip} | gzip bytes | br bytes.
 * @param {{ etag: string, length: number, gzip: Uint8Array, br: Uint8Array }} reply
 */
export function packReply(reply) {
  const header = Buffer.from(
    JSON.stringify({ v: 1, etag: reply.etag, length: reply.length, gzip: reply.gzip.length }),
  );
  const size = Buffer.alloc(4);
  size.writeUInt32BE(header.length);
  return Buffer.concat([size, header, reply.gzip, reply.br]);
}
