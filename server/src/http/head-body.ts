import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';

/**
 * What a streamed download sends: the stream itself, or for HEAD nothing of it. Fastify answers HEAD by
 * running the GET route and then reading the body it returns to its end and discarding it, so a HEAD of a
 * 64 MB results.bin deciphered all of it from storage. For HEAD the stream is closed unread (its storage
 * read and decipher stop) and an empty body goes out with the GET's headers (Content-Length included).
 */
export function bodyForMethod(request: FastifyRequest, body: Readable): Readable {
  if (request.method !== 'HEAD') return body;
  body.destroy();
  return Readable.from([]);
}
