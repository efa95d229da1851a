import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { pickEncoding } from '../fea/status-replies.ts';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** Below this a compressed reply saves less than its headers cost. */
export const COMPRESS_MIN_BYTES = 1024;
/** A string this short (UTF-16 units) is under COMPRESS_MIN_BYTES whatever its characters. */
const COMPRESS_MIN_CHARS = Math.floor(COMPRESS_MIN_BYTES / 3);

/**
 * API JSON replies of at least COMPRESS_MIN_BYTES go out brotli- or gzip-compressed by the request's
 * Accept-Encoding (the same negotiation as the status polls', `pickEncoding`), with `Vary`. Replies
 * already encoded (a completed job's stored status reply, the web app's precompressed files), streams
 * and buffers (downloads) pass untouched.
 */
export function installJsonCompression(app: FastifyInstance): void {
  // A callback hook: the common small reply passes without a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' || payload.length < COMPRESS_MIN_CHARS) return done(null, payload);
    if (Buffer.byteLength(payload) < COMPRESS_MIN_BYTES) return done(null, payload);
    if (reply.getHeader('content-encoding')) return done(null, payload);
    if (reply.statusCode === 204 || reply.statusCode === 304 || request.method === 'HEAD')
      return done(null, payload);
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('application/json')) return done(null, payload);
    reply.header('vary', 'Accept-Encoding');
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (encoding === 'identity') return done(null, payload);
    compress(payload, encoding).then((body) => {
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      done(null, body);
    }, done);
  });
}

async function compress(payload: string, encoding: 'br' | 'gzip'): Promise<Buffer> {
  const raw = Buffer.from(payload, 'utf8');
  return encoding === 'br'
    ? brotli(raw, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        },
      })
    : gzip(raw, { level: 6 });
}
