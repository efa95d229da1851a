import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.ts';

export interface ReceivedUpload {
  /** The bytes, in the scratch directory, under a generated name. */
  path: string;
  /** The name the browser sent (for messages and the extension only). */
  filename: string;
  bytes: number;
  sha256: string;
  /** Text fields; a field sent twice (the spec sends force_tet twice) keeps its last value. */
  fields: Record<string, string>;
}

const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * Streams the multipart `file` part to `dir`, counting and hashing bytes as they arrive, and stops at
 * `limitBytes` with a 413 (`tooLarge` message). Text fields may come before or after the file.
 */
export async function receiveUpload(
  request: FastifyRequest,
  dir: string,
  limitBytes: number,
  tooLarge: string,
  acceptName: (filename: string) => void,
): Promise<ReceivedUpload> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limitBytes + MULTIPART_OVERHEAD) throw new HttpError(413, 'file_too_large', tooLarge);
  if (!request.isMultipart()) {
    throw new HttpError(400, 'invalid_request', "Send the file as multipart/form-data in the field 'file'.");
  }
  const fields: Record<string, string> = {};
  let received: Omit<ReceivedUpload, 'fields'> | null = null;
  try {
    const parts = request.parts({ limits: { fileSize: limitBytes, files: 1, fields: 20, fieldSize: 4096 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw new HttpError(400, 'invalid_request', "Send the file in the multipart field 'file'.");
      }
      acceptName(part.filename);
      const path = join(dir, 'upload.bin');
      const hash = createHash('sha256');
      let bytes = 0;
      const count = new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          hash.update(chunk);
          done(null, chunk);
        },
      });
      await pipeline(part.file, count, createWriteStream(path, { mode: 0o600 }));
      if (part.file.truncated) throw new HttpError(413, 'file_too_large', tooLarge);
      received = { path, filename: part.filename, bytes, sha256: hash.digest('hex') };
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, 'file_too_large', tooLarge);
    if (code === 'FST_FILES_LIMIT') throw new HttpError(400, 'invalid_request', 'Send one file per upload.');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new HttpError(400, 'invalid_request', 'Too many form fields.');
    throw new HttpError(400, 'invalid_request', `The upload could not be read: ${(err as Error).message}`);
  }
  if (!received)
    throw new HttpError(400, 'invalid_request', "Choose a file to upload (multipart field 'file').");
  if (received.bytes === 0) throw new HttpError(400, 'invalid_request', `${received.filename} is empty.`);
  return { ...received, fields };
}
