import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { brotliOptions, GZIP_OPTIONS } from '../fea/reply-format.mjs';
import { pickEncoding } from '../fea/status-replies.ts';
import { bodyForMethod } from './head-body.ts';

/**
 * A streamed text reply (a study's table, a results file) compressed as it streams, by the request's
 * Accept-Encoding — the same negotiation as the JSON replies' (compress-json.ts, which passes streams
 * untouched). zlib compresses on its thread pool, a chunk at a time, and only as fast as the client reads:
 * the reply is never built whole. Returns what the route sends (`body` itself for identity). `bytes`, the
 * uncompressed length when known, sizes brotli's window and is the Content-Length of an identity reply.
 */
export function compressStream(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Readable,
  bytes?: number,
): Readable {
  reply.header('vary', 'Accept-Encoding');
  const encoding = pickEncoding(request.headers['accept-encoding']);
  if (encoding === 'identity') {
    if (bytes !== undefined) reply.header('content-length', String(bytes));
    return bodyForMethod(request, body);
  }
  const zip =
    encoding === 'br' ? zlib.createBrotliCompress(brotliOptions(bytes ?? 0)) : zlib.createGzip(GZIP_OPTIONS);
  reply.header('content-encoding', encoding);
  if (request.method === 'HEAD') return bodyForMethod(request, body);
  // An error on either side ends both (Fastify then cuts the response short); a client that goes away
  // destroys `zip`, which stops the read of `body`.
  return pipeline(body, zip, () => undefined);
}
