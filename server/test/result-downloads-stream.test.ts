import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import {
  get as httpGet,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditTokens, pollUntil, signedInUser, submit, tinyJob } from './support/compute.ts';
import { watchLoopStalls } from './support/loop-stalls.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

// Issue 37: a job's result downloads (results.json, results.bin, the S-parameter exports — what a study
// point or the viewer opens) stream from storage through decryption to the socket, with backpressure: the
// server never holds a large file whole, and no turn of its event loop works on it for long. Run on the
// local store, and on S3 (moto) where scripts/with-moto.sh provides it.
const BINARY_MB = 64;
const MAX_STALL_MS = 50;
/**
 * What this process's buffers may grow by while a client holds the 64 MB download paused after its headers:
 * half the file (8–14 MB seen, chunks already sent and not yet collected among them; the code that read
 * the file whole grew 64 MB).
 */
const PAUSED_GROWTH_MB = 32;

/** A deterministic pseudo-random file (incompressible, so no layer can shortcut it), and its digest. */
function noise(bytes: number): Buffer {
  const out = Buffer.allocUnsafe(bytes);
  let x = 0x9e3779b9;
  for (let i = 0; i < bytes; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.writeUInt32LE(x >>> 0, i);
  }
  return out;
}
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const backends: [string, Record<string, string> | null][] = [['local', {}]];
const s3Endpoint = process.env.TEST_S3_ENDPOINT;
if (s3Endpoint) {
  backends.push([
    's3',
    {
      STORAGE_BACKEND: 's3',
      S3_BUCKET: `fieldline-dl-${Date.now()}`,
      S3_ENDPOINT: s3Endpoint,
      S3_REGION: 'us-east-1',
    },
  ]);
}

describe.each(backends)('result downloads stream from %s storage (issue 37)', (_backend, storageEnv) => {
  const dir = mkdtempSync(join(tmpdir(), 'fieldline-dl-'));
  const binary = noise(BINARY_MB * 2 ** 20);
  const resultsJson = JSON.stringify({
    quantities: { capacitance_F: 1e-12 },
    solver_info: { analysis: 'electrostatic' },
    sweep: Array.from({ length: 20_000 }, (_, i) => [i, Math.sin(i)]),
  });
  const csv = 'frequency_Hz,S11_re,S11_im\n1e9,0.1,-0.2\n';
  let t: TestApp;
  let base: string;
  let cookie: string;
  let jobId: string;

  beforeAll(async () => {
    writeFileSync(join(dir, 'results.bin'), binary);
    writeFileSync(join(dir, 'results.json'), resultsJson);
    writeFileSync(join(dir, 'sparameters.csv'), csv);
    const engine = join(dir, 'engine.sh');
    writeFileSync(
      engine,
      `#!/bin/sh
while [ "$1" != "--job" ] && [ $# -gt 0 ]; do shift; done
cp '${dir}/results.json' '${dir}/results.bin' '${dir}/sparameters.csv' "$2/"
echo '{"event":"done","result":{},"message":"Completed"}'
`,
    );
    chmodSync(engine, 0o755);
    if (storageEnv?.S3_BUCKET) {
      // the SDK's credential chain reads the process environment
      process.env.AWS_ACCESS_KEY_ID ??= 'testing';
      process.env.AWS_SECRET_ACCESS_KEY ??= 'testing';
      const s3 = new S3Client({ region: 'us-east-1', endpoint: s3Endpoint, forcePathStyle: true });
      await s3.send(new CreateBucketCommand({ Bucket: storageEnv.S3_BUCKET }));
    }
    t = await createTestApp({
      ...storageEnv,
      ENGINE_PYTHON: engine,
      ENGINE_STANDBY: '0',
      ENGINE_NETWORK_ISOLATION: 'off',
      WELCOME_GRANT_TOKENS: '0',
    });
    const user = await signedInUser(t);
    cookie = user.cookie;
    await creditTokens(t.ctx, user.userId, 100);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const res = await submit(t.app, cookie, tinyJob());
    expect(res.statusCode, res.body).toBe(200);
    jobId = res.json().job_id as string;
    await pollUntil(async () => (await t.ctx.jobs.get(jobId))?.status === 'completed', 60_000, 50);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Opens a GET over a real socket; the caller reads the response as it likes. */
  const open = (path: string, who = cookie, headers: Record<string, string> = {}) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      httpGet(
        `${base}${path}`,
        { headers: { cookie: who, 'sec-fetch-site': 'same-origin', ...headers } },
        resolve,
      ).on('error', reject);
    });
  const readAll = (res: IncomingMessage) =>
    new Promise<{ body: Buffer; chunks: number; headers: IncomingHttpHeaders; status: number }>(
      (resolve, reject) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({
            body: Buffer.concat(parts),
            chunks: parts.length,
            headers: res.headers,
            status: res.statusCode ?? 0,
          }),
        );
        res.on('error', reject);
      },
    );
  /** Reads a response as it arrives, keeping only its digest: the client holds no copy of a large body. */
  const digest = (res: IncomingMessage) =>
    new Promise<{ sha256: string; bytes: number; chunks: number }>((resolve, reject) => {
      const hash = createHash('sha256');
      let bytes = 0;
      let chunks = 0;
      res.on('data', (c: Buffer) => {
        hash.update(c);
        bytes += c.length;
        chunks++;
      });
      res.on('end', () => resolve({ sha256: hash.digest('hex'), bytes, chunks }));
      res.on('error', reject);
    });
  /** Buffers alive in this process (the server's and the client's): what holding a download whole would grow. */
  const buffersMb = () => process.memoryUsage().arrayBuffers / 2 ** 20;

  it(`streams a ${BINARY_MB} MB results.bin in chunks, waits on a paused reader with bounded memory, and never stalls the event loop ${MAX_STALL_MS} ms`, async () => {
    const expected = sha256(binary);
    const before = buffersMb();
    const watch = watchLoopStalls();
    const res = await open(`/api/fea/results/${jobId}/binary`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-length']).toBe(String(binary.length));
    // The client stops reading after the headers: the server must stop too (backpressure), not read on.
    res.pause();
    await new Promise((r) => setTimeout(r, 600));
    const paused = buffersMb() - before;
    const got = digest(res);
    res.resume();
    const { sha256: received, bytes, chunks } = await got;
    const stalls = watch.stop();
    console.log(
      `results.bin ${BINARY_MB} MB (${_backend}): ${chunks} chunks; buffers grew ${paused.toFixed(1)} MB while the reader paused (limit ${PAUSED_GROWTH_MB}); longest event-loop turn ${stalls.busyMaxMs?.toFixed(1) ?? '–'} ms of CPU, delay p99 ${stalls.delayP99Ms.toFixed(1)} ms, max ${stalls.delayMaxMs.toFixed(1)} ms (limit ${MAX_STALL_MS})`,
    );
    expect(bytes).toBe(binary.length);
    expect(received).toBe(expected);
    expect(chunks).toBeGreaterThan(16);
    expect(paused).toBeLessThan(PAUSED_GROWTH_MB);
    expect(stalls.busyMaxMs ?? stalls.delayMaxMs).toBeLessThan(MAX_STALL_MS);
  });

  it('streams results.json and the S-parameter CSV byte for byte, with their types and file names', async () => {
    const json = await readAll(await open(`/api/fea/download/${jobId}?format=json`));
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toBe('application/json');
    expect(json.headers['content-disposition']).toBe(`attachment; filename="fea_results_${jobId}.json"`);
    expect(json.headers['content-length']).toBe(String(Buffer.byteLength(resultsJson)));
    expect(json.body.toString('utf8')).toBe(resultsJson);
    // compressed as it streams when the client accepts it (a browser's download)
    const br = await readAll(
      await open(`/api/fea/download/${jobId}?format=json`, cookie, {
        'accept-encoding': 'gzip, deflate, br',
      }),
    );
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-length']).toBeUndefined();
    expect(brotliDecompressSync(br.body).toString('utf8')).toBe(resultsJson);
    expect(br.body.length).toBeLessThan(resultsJson.length / 2);
    const exported = await readAll(await open(`/api/fea/download/${jobId}?format=csv`));
    expect(exported.status).toBe(200);
    expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(exported.headers['content-disposition']).toBe(
      `attachment; filename="fea_sparameters_${jobId}.csv"`,
    );
    expect(exported.body.toString('utf8')).toBe(csv);
    const touchstone = await readAll(await open(`/api/fea/download/${jobId}?format=touchstone`));
    expect(touchstone.status).toBe(404);
    expect(JSON.parse(touchstone.body.toString('utf8')).message).toBe('No S-parameters for this job');
  });

  it('answers HEAD with the headers of GET and reads none of the stored object', async () => {
    // Count what storage hands the route: Fastify's own HEAD answer read (and discarded) the whole stream.
    const files = t.ctx.jobs.files;
    const streamResult = files.streamResult.bind(files);
    let read = 0;
    files.streamResult = async (id, name) => {
      const file = await streamResult(id, name);
      file?.body.on('data', (c: Buffer) => {
        read += c.length;
      });
      return file;
    };
    try {
      const head = (path: string, headers: Record<string, string> = {}) =>
        new Promise<IncomingMessage>((resolve, reject) => {
          httpRequest(
            `${base}${path}`,
            { method: 'HEAD', headers: { cookie, 'sec-fetch-site': 'same-origin', ...headers } },
            resolve,
          )
            .on('error', reject)
            .end();
        });
      const bin = await readAll(await head(`/api/fea/results/${jobId}/binary`));
      expect(bin.status).toBe(200);
      expect(bin.headers['content-length']).toBe(String(binary.length));
      expect(bin.body.length).toBe(0);
      const json = await readAll(await head(`/api/fea/download/${jobId}?format=json`));
      expect(json.status).toBe(200);
      expect(json.headers['content-length']).toBe(String(Buffer.byteLength(resultsJson)));
      const br = await readAll(
        await head(`/api/fea/download/${jobId}?format=json`, { 'accept-encoding': 'br' }),
      );
      expect(br.headers['content-encoding']).toBe('br');
      await new Promise((r) => setTimeout(r, 200)); // a stream left flowing would go on reading now
      console.log(
        `HEAD of ${BINARY_MB} MB results.bin and results.json (${_backend}): ${read} bytes read from storage`,
      );
      expect(read).toBeLessThan(1 << 20);
    } finally {
      files.streamResult = streamResult;
    }
  });

  it("answers another user's job with a 404 before any byte of it", async () => {
    const other = await signedInUser(t);
    for (const path of [
      `/api/fea/results/${jobId}/binary`,
      `/api/fea/download/${jobId}?format=json`,
      `/api/fea/download/${jobId}?format=csv`,
    ]) {
      const res = await readAll(await open(path, other.cookie));
      expect(res.status, path).toBe(404);
      expect(res.body.length, path).toBeLessThan(200);
      expect(res.body.includes(binary.subarray(0, 32))).toBe(false);
    }
  });
});
