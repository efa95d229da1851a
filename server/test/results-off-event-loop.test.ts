import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxMesh } from './support/box-mesh.ts';
import { creditTokens, pollUntil, signedInUser, submit, tinyJob } from './support/compute.ts';
import { watchLoopStalls } from './support/loop-stalls.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

// Issue 37: a large job's completion must not freeze the API. The engine is a stand-in that writes the
// results of a 384,000-tetrahedron electrostatic job (a 40³-cell box: the issue's job), in the engine's
// results format, and says `done`; everything after that is the real completion path of the real app —
// results stored (sealed), the job finished, its status reply built and stored, then the user's
// environment polling it, opening its info and binary results and downloading results.json — with an
// event-loop delay monitor running throughout. Its longest stall must stay under 50 ms.
const MAX_STALL_MS = 50;
const CELLS = 40;

const dir = mkdtempSync(join(tmpdir(), 'fieldline-offloop-'));

/** What the engine writes for an electrostatic job on the box: potential and field at every vertex. */
function largeResults(): string {
  const mesh = boxMesh([0.1, 0.1, 0.1], [CELLS, CELLS, CELLS]);
  // A plate capacitor's field with a small ripple, so the numbers carry the digits a solve's do.
  const potential = mesh.vertices.map(([x, , z]) => z * 10 + 1e-3 * Math.sin(40 * x));
  const efield = mesh.vertices.map(([x]) => [-0.04 * Math.cos(40 * x), 0, -10 + 1e-4 * Math.sin(x)]);
  return JSON.stringify({
    vertices: mesh.vertices,
    tetrahedra: mesh.tetrahedra,
    fields: {
      potential: {
        label: 'Potential',
        unit: 'V',
        kind: 'scalar',
        location: 'vertex',
        complex: false,
        data: potential,
      },
      efield: {
        label: 'Electric field',
        unit: 'V/m',
        kind: 'vector',
        location: 'vertex',
        complex: false,
        data: efield,
      },
    },
    field_magnitudes: {
      efield: efield.map(([x, y, z]) => Math.hypot(x as number, y as number, z as number)),
    },
    quantities: { capacitance_F: 8.854187817e-12, energy_J: 4.427093908e-12 },
    solver_info: {
      analysis: 'electrostatic',
      elements: mesh.tetrahedra.length,
      matrix_size: mesh.vertices.length,
    },
  });
}

/**
 * A GET over a real socket that keeps the body as its chunks: the client's own work stays per chunk, so
 * the monitor measures the server, not a client joining and decoding tens of MB at once.
 */
function fetchChunks(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; chunks: Buffer[] }> {
  return new Promise((resolve, reject) => {
    httpGet(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** A stand-in engine: copies the prepared results into the job directory and reports `done`. */
function standInEngine(results: string, binary: string): string {
  const path = join(dir, 'engine.sh');
  writeFileSync(
    path,
    `#!/bin/sh
while [ "$1" != "--job" ] && [ $# -gt 0 ]; do shift; done
echo '{"event":"progress","percent":10,"message":"Solving"}'
sleep 1
cp '${results}' "$2/results.json"
cp '${binary}' "$2/results.bin"
echo '{"event":"progress","percent":90,"message":"Writing results"}'
echo '{"event":"done","result":{},"message":"Completed"}'
`,
  );
  chmodSync(path, 0o755);
  return path;
}

describe('a large job completing does not stall the event loop (issue 37)', () => {
  let t: TestApp;
  const resultsFile = join(dir, 'results.json');

  beforeAll(async () => {
    // Written once, not kept: the test process's heap stays small, so its own GC is not what is measured.
    writeFileSync(resultsFile, largeResults());
    const binaryFile = join(dir, 'results.bin');
    writeFileSync(binaryFile, Buffer.alloc(10 * 2 ** 20, 7));
    t = await createTestApp({
      ENGINE_PYTHON: standInEngine(resultsFile, binaryFile),
      ENGINE_STANDBY: '0',
      ENGINE_NETWORK_ISOLATION: 'off',
      WELCOME_GRANT_TOKENS: '0',
    });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`keeps every event-loop stall under ${MAX_STALL_MS} ms from the engine's done to the download`, async () => {
    const { userId, cookie } = await signedInUser(t);
    await creditTokens(t.ctx, userId, 100);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const get = (url: string, headers: Record<string, string> = {}) =>
      fetchChunks(base, url, { cookie, 'sec-fetch-site': 'same-origin', ...headers });
    const text = (r: { chunks: Buffer[] }) => Buffer.concat(r.chunks).toString('utf8');

    const res = await submit(t.app, cookie, tinyJob());
    expect(res.statusCode).toBe(200);
    const jobId = res.json().job_id as string;
    const status = async () =>
      JSON.parse(text(await get(`/api/fea/status/${jobId}`))) as { message?: string };
    // From the engine's first progress (it then waits 1 s before it writes its results) to the last download.
    await pollUntil(async () => (await status()).message === 'Solving', 60_000, 20);
    const watch = watchLoopStalls();
    // As the environment polls: every 2 s in the product, every 50 ms here.
    // (The client reads only the status field: the completed reply carries the whole results.)
    await pollUntil(
      async () =>
        /^\{"job_id":"[^"]+","status":"completed"/.test(
          (await get(`/api/fea/status/${jobId}`)).chunks[0]?.toString('utf8', 0, 100) ?? '',
        ),
      60_000,
      50,
    );
    const reply = await get(`/api/fea/status/${jobId}`, { 'accept-encoding': 'gzip, deflate, br' });
    const info = await get(`/api/fea/results/${jobId}/info`);
    const binary = await get(`/api/fea/results/${jobId}/binary`);
    const download = await get(`/api/fea/download/${jobId}?format=json`);
    const stalls = watch.stop();

    const resultsText = readFileSync(resultsFile, 'utf8');
    // The stall the server causes: its longest run without returning to the event loop (CPU time, so a
    // busy machine's scheduling is not counted); the wall-clock delay is printed beside it.
    const stall = stalls.busyMaxMs ?? stalls.delayMaxMs;
    console.log(
      `results.json ${(resultsText.length / 2 ** 20).toFixed(1)} MB (${CELLS ** 3 * 6} tetrahedra): longest event-loop turn ${stalls.busyMaxMs?.toFixed(1) ?? '–'} ms of CPU (limit ${MAX_STALL_MS} ms); event-loop delay p99 ${stalls.delayP99Ms.toFixed(1)} ms, max ${stalls.delayMaxMs.toFixed(1)} ms`,
    );

    // The replies are the same bytes as before: the results under the status fields, the file as stored.
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(Buffer.concat(reply.chunks)).toString('utf8')).toBe(
      JSON.stringify({
        job_id: jobId,
        status: 'completed',
        progress: 100,
        message: 'Completed',
        results: JSON.parse(resultsText),
      }),
    );
    expect(info.status).toBe(200);
    expect(JSON.parse(text(info)).contents).toMatchObject({
      analysis: 'electrostatic',
      vertices: (CELLS + 1) ** 3,
      quantities: ['capacitance_F', 'energy_J'],
      field_magnitudes: ['efield'],
      fields: [
        { name: 'potential', unit: 'V', kind: 'scalar', location: 'vertex', complex: false },
        { name: 'efield', unit: 'V/m', kind: 'vector', location: 'vertex', complex: false },
      ],
    });
    expect(binary.status).toBe(200);
    expect(Buffer.concat(binary.chunks).equals(Buffer.alloc(10 * 2 ** 20, 7))).toBe(true);
    expect(download.status).toBe(200);
    expect(text(download)).toBe(resultsText);

    expect(stall).toBeLessThan(MAX_STALL_MS);
  });
});
