import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { pickEncoding } from '../fea/status-replies.ts';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** Below this a compressed reply saves less than its headers cost. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * API JSON replies of at least COMPRESS_MIN_BYTES go out brotli- or gzip-compressed by the request's
 * Accept-Encoding (the same negotiation as the status polls', `pickEncoding`), with `Vary`. Replies
 * already encoded (a completed job's stored status reply, the web app's precompressed files), streams
 * and buffers (downloads) pass untouched.
 */
export function installJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || Buffer.byteLength(payload) < COMPRESS_MIN_BYTES) return payload;
    if (reply.getHeader('content-encoding')) return payload;
    if (reply.statusCode === 204 || reply.statusCode === 304 || request.method === 'HEAD') return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('application/json')) return payload;
    reply.header('vary', 'Accept-Encoding');
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (encoding === 'identity') return payload;
    const raw = Buffer.from(payload, 'utf8');
    const body =
      encoding === 'br'
        ? await brotli(raw, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            },
          })
        : await gzip(raw, { level: 6 });
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return body;
  });
}
