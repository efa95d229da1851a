import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { JobStorage } from '../../src/jobs/job-storage.ts';
import { EncryptedStorage } from '../../src/storage/encrypted-storage.ts';
import { LocalBlobStore } from '../../src/storage/local-blob-store.ts';
import { S3BlobStore } from '../../src/storage/s3-blob-store.ts';
import { OpenSealedStream } from '../../src/storage/sealed-stream.ts';

const key = randomBytes(32).toString('hex');
const secret = Buffer.from('{"mesh_data":{"vertices":[[0,0,0]]},"secret":"proprietary antenna geometry"}');

describe('encrypted local storage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fieldline-store-'));
  const store = new EncryptedStorage(new LocalBlobStore(dir), key);

  it('stores AES-256-GCM ciphertext at rest, never the plaintext, and reads it back', async () => {
    await store.put('jobs/abc/job.json', secret);
    const onDisk = readFileSync(join(dir, 'jobs/abc/job.json'));
    expect(onDisk.includes(Buffer.from('proprietary'))).toBe(false);
    expect(onDisk.subarray(0, 4).toString()).toBe('FLE1');
    expect(onDisk.length).toBe(secret.length + 4 + 12 + 16);
    expect((await store.get('jobs/abc/job.json'))?.equals(secret)).toBe(true);
  });

  it('refuses tampered bytes and objects moved to another key', async () => {
    const file = join(dir, 'jobs/abc/job.json');
    const sealed = readFileSync(file);
    const flipped = Buffer.from(sealed);
    flipped[20] = (flipped[20] ?? 0) ^ 1;
    writeFileSync(file, flipped);
    await expect(store.get('jobs/abc/job.json')).rejects.toThrow(/auth/i);
    writeFileSync(join(dir, 'jobs/abc/moved.json'), sealed);
    await expect(store.get('jobs/abc/moved.json')).rejects.toThrow(/auth/i);
    const otherKey = new EncryptedStorage(new LocalBlobStore(dir), randomBytes(32).toString('hex'));
    writeFileSync(file, sealed);
    await expect(otherKey.get('jobs/abc/job.json')).rejects.toThrow(/auth/i);
  });

  it('lists and deletes by prefix, and refuses keys that could escape the directory', async () => {
    await store.put('jobs/j1/out/results.json', Buffer.from('{}'));
    await store.put('jobs/j1/job.json', Buffer.from('{}'));
    expect(await store.list('jobs/j1')).toEqual(['jobs/j1/job.json', 'jobs/j1/out/results.json']);
    expect(await store.deletePrefix('jobs/j1')).toBe(2);
    expect(await store.get('jobs/j1/job.json')).toBeNull();
    await expect(store.put('../evil', Buffer.from('x'))).rejects.toThrow(/unsafe/);
    await expect(store.put('/etc/x', Buffer.from('x'))).rejects.toThrow(/unsafe/);
  });
});

/** Reads a stream to its end: its bytes and how many chunks they came in. */
async function drain(body: NodeJS.ReadableStream): Promise<{ bytes: Buffer; chunks: number }> {
  const parts: Buffer[] = [];
  for await (const c of body) parts.push(c as Buffer);
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}

describe('encrypted storage read as a stream (downloads, issue 37)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fieldline-stream-'));
  const blobs = new LocalBlobStore(dir);
  const store = new EncryptedStorage(blobs, key);
  const large = randomBytes(8 * 2 ** 20);

  it('opens a sealed object chunk by chunk into the same bytes, its plaintext length known first', async () => {
    await store.put('jobs/s/out/results.bin', large);
    const file = await store.getStream('jobs/s/out/results.bin');
    expect(file?.bytes).toBe(large.length);
    const { bytes, chunks } = await drain(file?.body as NodeJS.ReadableStream);
    expect(bytes.equals(large)).toBe(true);
    expect(chunks).toBeGreaterThan(8);
    // a small object (sealed on this thread) and an empty one read the same way
    await store.put('jobs/s/out/small.json', secret);
    expect(
      (await drain((await store.getStream('jobs/s/out/small.json'))?.body as never)).bytes.equals(secret),
    ).toBe(true);
    await store.put('jobs/s/out/empty', Buffer.alloc(0));
    expect((await drain((await store.getStream('jobs/s/out/empty'))?.body as never)).bytes.length).toBe(0);
    expect(await store.getStream('jobs/s/out/missing')).toBeNull();
  });

  it('opens the same bytes whatever the chunk boundaries (inside the header, the tag, single bytes)', async () => {
    const plain = randomBytes(5000);
    const sealed = store.seal('jobs/s/out/x', plain);
    for (const sizes of [[1], [3, 17], [16], [15, 1, 33], [4999], [sealed.length]]) {
      const opener = new OpenSealedStream(new Uint8Array(Buffer.from(key, 'hex')), 'jobs/s/out/x');
      const out = drain(opener);
      for (let at = 0, i = 0; at < sealed.length; i++) {
        const n = sizes[i % sizes.length] as number;
        opener.write(sealed.subarray(at, at + n));
        at += n;
      }
      opener.end();
      expect((await out).bytes.equals(plain), `chunks of ${sizes}`).toBe(true);
    }
  });

  it('reads from storage only as fast as its reader reads (backpressure)', async () => {
    let source: { bytesRead: number } | undefined;
    const spied = new EncryptedStorage(
      Object.assign(Object.create(blobs), {
        getStream: async (k: string) => {
          const s = await blobs.getStream(k);
          source = s?.body as unknown as { bytesRead: number };
          return s;
        },
      }),
      key,
    );
    const file = await spied.getStream('jobs/s/out/results.bin');
    const body = file?.body as NodeJS.ReadableStream;
    await new Promise((resolve) => body.once('data', resolve));
    body.pause();
    await new Promise((r) => setTimeout(r, 200));
    // A few read-ahead chunks, not the 8 MB object.
    expect(source?.bytesRead).toBeLessThan(2 ** 20);
    const rest = await drain(body);
    expect(rest.bytes.length).toBeGreaterThan(large.length - 2 ** 20);
  });

  it('errors at the end of a tampered or moved object instead of completing it', async () => {
    const file = join(dir, 'jobs/s/out/results.bin');
    const sealed = readFileSync(file);
    const flipped = Buffer.from(sealed);
    flipped[sealed.length - 100] = (flipped[sealed.length - 100] ?? 0) ^ 1;
    writeFileSync(file, flipped);
    await expect(drain((await store.getStream('jobs/s/out/results.bin'))?.body as never)).rejects.toThrow(
      /auth/i,
    );
    writeFileSync(join(dir, 'jobs/s/out/moved.bin'), sealed);
    await expect(drain((await store.getStream('jobs/s/out/moved.bin'))?.body as never)).rejects.toThrow(
      /auth/i,
    );
    writeFileSync(join(dir, 'jobs/s/out/plain.bin'), Buffer.from('not sealed at all, just some plain text'));
    await expect(drain((await store.getStream('jobs/s/out/plain.bin'))?.body as never)).rejects.toThrow(
      /not in the encrypted format/,
    );
  });
});

describe('staging and stored files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fieldline-stage-'));
  const store = new EncryptedStorage(new LocalBlobStore(join(dir, 'objects')), key);

  it('stages job.json and extra input files into a plaintext job dir, and results back out', async () => {
    const jobs = new JobStorage(store, join(dir, 'work'));
    await jobs.putInput('j2', { config: { analysisType: 'em' } });
    await jobs.putInputFile('j2', 'source.step', secret);
    await expect(jobs.putInputFile('j2', '../x', secret)).rejects.toThrow(/unsafe/);
    const local = await jobs.stageIn('j2', 1);
    expect(JSON.parse(readFileSync(join(local, 'job.json'), 'utf8'))).toEqual({
      config: { analysisType: 'em' },
    });
    expect(readFileSync(join(local, 'source.step')).equals(secret)).toBe(true);
    writeFileSync(join(local, 'results.json'), '{"ok":1}');
    // Staged inputs are not results: only what the engine wrote goes back out.
    expect(await jobs.stageOut('j2', local)).toEqual([{ name: 'results.json', bytes: 8 }]);
    await jobs.cleanLocal(local);
    expect((await jobs.readResult('j2', 'results.json'))?.toString()).toBe('{"ok":1}');
    const onDisk = readFileSync(join(dir, 'objects', 'jobs', 'j2', 'in', 'source.step'));
    expect(onDisk.includes(Buffer.from('proprietary'))).toBe(false);
  });
});

// scripts/test.sh runs this against moto's S3 server on loopback (scripts/with-moto.sh).
const endpoint = process.env.TEST_S3_ENDPOINT;
describe.skipIf(!endpoint)('encrypted S3 storage (moto server)', () => {
  it('round-trips, stores ciphertext in the bucket, lists and deletes by prefix', async () => {
    process.env.AWS_ACCESS_KEY_ID ??= 'testing';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'testing';
    const bucket = `fieldline-test-${Date.now()}`;
    const s3 = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true });
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    const blobs = new S3BlobStore({
      bucket,
      region: 'us-east-1',
      endpoint: endpoint ?? null,
      forcePathStyle: true,
    });
    const store = new EncryptedStorage(blobs, key);
    await store.put('jobs/s3job/job.json', secret);
    await store.put('jobs/s3job/out/results.json', Buffer.from('{"ok":true}'));
    const raw = await blobs.get('jobs/s3job/job.json');
    expect(raw?.includes(Buffer.from('proprietary'))).toBe(false);
    expect((await store.get('jobs/s3job/job.json'))?.equals(secret)).toBe(true);
    expect(await store.get('jobs/s3job/missing.json')).toBeNull();
    // Streamed (downloads): the same bytes, the plaintext length from the object's size, null when missing.
    const large = randomBytes(3 * 2 ** 20);
    await store.put('jobs/s3job/out/results.bin', large);
    const file = await store.getStream('jobs/s3job/out/results.bin');
    expect(file?.bytes).toBe(large.length);
    const streamed = await drain(file?.body as NodeJS.ReadableStream);
    expect(streamed.bytes.equals(large)).toBe(true);
    expect(streamed.chunks).toBeGreaterThan(3);
    expect(await store.getStream('jobs/s3job/out/missing.bin')).toBeNull();
    await store.delete('jobs/s3job/out/results.bin');
    expect(await store.list('jobs/s3job')).toEqual(['jobs/s3job/job.json', 'jobs/s3job/out/results.json']);
    expect(await store.deletePrefix('jobs/s3job')).toBe(2);
    expect(await store.list('jobs/s3job')).toEqual([]);
  });
});
