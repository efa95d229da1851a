import { LENGTH_UNITS, unsupportedFileTypeMessage } from '@fieldline/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadFixtures } from '../support/geometry.ts';
import { type MemoryReading, ServerProcess } from '../support/server-process.ts';
import { zipOf } from '../support/zip-writer.ts';
import { FuzzTally, leftBehind, sendWithin } from './fuzz-support.ts';

// Seeded and repeatable. Every upload that gets past the server's own checks is read by the engine in a
// subprocess. The engine refuses a malformed file before it imports its numerical libraries (≈ 0.3 CPU s for
// Python and numpy); only what passes those checks (STEP files with a real header, for gmsh) costs more. Two
// uploads are in flight at a time (the CI machine has two cores). FUZZ_UPLOAD_RUNS sets the count.
const SEED = Number(process.env.FUZZ_SEED ?? 20_2026);
const RUNS = Number(process.env.FUZZ_UPLOAD_RUNS ?? 1000);
const CONCURRENCY = Number(process.env.FUZZ_UPLOAD_CONCURRENCY ?? 2);
const WARM_UP_RUNS = Math.min(200, RUNS);
const LIMIT_MB = 1;
const ZIP_LIMIT_MB = 2;

interface Upload {
  kind: string;
  filename: string;
  content: Buffer;
  units?: string;
  /** Refused by the server before the engine runs: the exact status and code. */
  refused?: { status: number; error: string; says?: string };
}

// A closed box surface: 8 corners, 12 triangles.
const CORNERS = [0, 1, 2, 3, 4, 5, 6, 7].map((b) => [b & 1, (b >> 1) & 1, (b >> 2) & 1].map((x) => x * 10));
const TRIANGLES = [
  [0, 2, 1],
  [1, 2, 3],
  [4, 5, 6],
  [5, 7, 6],
  [0, 1, 4],
  [1, 5, 4],
  [2, 6, 3],
  [3, 6, 7],
  [0, 4, 2],
  [2, 4, 6],
  [1, 3, 5],
  [3, 7, 5],
];

function binaryStl(triangles: number[][], declared: number): Buffer {
  const buf = Buffer.alloc(84 + 50 * triangles.length);
  buf.write('fuzzed binary stl', 0, 'ascii');
  buf.writeUInt32LE(declared >>> 0, 80);
  triangles.forEach((t, i) => {
    t.forEach((v, c) => {
      for (let k = 0; k < 3; k++) buf.writeFloatLE(CORNERS[v]?.[k] ?? 0, 84 + 50 * i + 12 + 12 * c + 4 * k);
    });
  });
  return buf;
}

function asciiStl(coord: (v: number, k: number) => string, dropVertex: number): Buffer {
  const lines = ['solid fuzz'];
  TRIANGLES.forEach((t, i) => {
    lines.push(' facet normal 0 0 0', '  outer loop');
    t.forEach((v, c) => {
      if (i * 3 + c !== dropVertex) lines.push(`   vertex ${[0, 1, 2].map((k) => coord(v, k)).join(' ')}`);
    });
    lines.push('  endloop', ' endfacet');
  });
  lines.push('endsolid fuzz');
  return Buffer.from(lines.join('\n'));
}

function obj(coord: (v: number, k: number) => string, face: (t: number[], i: number) => number[]): Buffer {
  const v = CORNERS.map((_, i) => `v ${[0, 1, 2].map((k) => coord(i, k)).join(' ')}`);
  const f = TRIANGLES.map((t, i) => `f ${face(t, i).join(' ')}`);
  return Buffer.from([...v, ...f].join('\n'));
}

const plain = (v: number, k: number) => String(CORNERS[v]?.[k] ?? 0);
const nonFinite = fc.constantFrom('nan', 'NaN', 'inf', '-inf', 'Infinity', '1e999');

const truncatedStep = fc.double({ min: 0.05, max: 0.97, noNaN: true }).map((f) => {
  const step = uploadFixtures().file('box.step');
  return {
    kind: 'truncated STEP',
    filename: 'part.step',
    content: step.subarray(0, Math.floor(step.length * f)),
  };
});
const garbageStep = fc
  .tuple(
    fc.boolean(),
    fc.uint8Array({ minLength: 1, maxLength: 4096 }),
    fc.constantFrom('step', 'stp', 'STEP'),
  )
  .map(([header, bytes, ext]) => ({
    kind: 'garbage STEP',
    filename: `part.${ext}`,
    content: Buffer.concat([Buffer.from(header ? 'ISO-10303-21;\nHEADER;\n' : ''), Buffer.from(bytes)]),
  }));
const lyingStl = fc
  .tuple(
    fc.integer({ min: 0, max: 12 }),
    fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom(0xffffffff, 2 ** 31, 20_000_001)),
  )
  .filter(([n, declared]) => n !== declared)
  .map(([n, declared]) => ({
    kind: 'binary STL, lying triangle count',
    filename: 'part.stl',
    content: binaryStl(TRIANGLES.slice(0, n), declared),
  }));
const brokenAsciiStl = fc
  .tuple(nonFinite, fc.nat({ max: 7 }), fc.nat({ max: 2 }), fc.integer({ min: -1, max: 35 }))
  .map(([bad, v0, k0, drop]) => ({
    kind: 'ASCII STL: NaN/Inf or a missing vertex',
    filename: 'part.stl',
    content: asciiStl((v, k) => (drop < 0 && v === v0 && k === k0 ? bad : plain(v, k)), drop),
  }));
const badObj = fc.oneof(
  fc
    .tuple(
      fc.nat({ max: 11 }),
      fc.nat({ max: 2 }),
      fc.oneof(
        fc.integer({ min: 9, max: 2 ** 31 }),
        fc.integer({ min: -(2 ** 31), max: -9 }),
        fc.constant(0),
      ),
    )
    .map(([ti, c, index]) => ({
      kind: 'OBJ: out-of-range, negative or zero index',
      filename: 'part.obj',
      content: obj(plain, (t, i) => t.map((v, j) => (i === ti && j === c ? index : v + 1))),
    })),
  fc.tuple(nonFinite, fc.nat({ max: 7 }), fc.nat({ max: 2 })).map(([bad, v0, k0]) => ({
    kind: 'OBJ: NaN/Inf coordinate',
    filename: 'part.obj',
    content: obj(
      (v, k) => (v === v0 && k === k0 ? bad : plain(v, k)),
      (t) => t.map((v) => v + 1),
    ),
  })),
);
const stlBytes = () => asciiStl(plain, -1);
const hostileZip = fc.oneof(
  fc
    .constantFrom(
      '../evil.stl',
      '../../../../tmp/evil.stl',
      '/etc/evil.stl',
      'a/../../evil.stl',
      'C:\\evil.stl',
      'C:/evil.stl',
      'ok/..\\..\\evil.stl',
    )
    .map((name) => ({
      kind: 'ZIP: path traversal',
      filename: 'parts.zip',
      content: zipOf([{ name, data: stlBytes() }]),
    })),
  fc.constantFrom('/etc/passwd', '../../secret.stl', 'part.stl').map((target) => ({
    kind: 'ZIP: symlink member',
    filename: 'parts.zip',
    content: zipOf([
      { name: 'part.stl', data: stlBytes() },
      { name: 'link.stl', data: Buffer.from(target), symlink: true },
    ]),
  })),
  fc.tuple(fc.integer({ min: ZIP_LIMIT_MB + 1, max: 24 }), fc.boolean()).map(([mb, lie]) => ({
    kind: `ZIP: bomb over ZIP_MAX_EXPANDED_MB`,
    filename: 'bomb.zip',
    content: zipOf([
      { name: 'bomb.stl', data: Buffer.alloc(mb * 1024 * 1024, 0x20), claimedSize: lie ? 1000 : undefined },
    ]),
  })),
  fc.double({ min: 0.1, max: 0.95, noNaN: true }).map((f) => {
    const z = zipOf([{ name: 'part.stl', data: stlBytes() }]);
    return {
      kind: 'ZIP: truncated or not geometry',
      filename: 'parts.zip',
      content: z.subarray(0, Math.floor(z.length * f)),
    };
  }),
  fc.constant({
    kind: 'ZIP: truncated or not geometry',
    filename: 'parts.zip',
    content: zipOf([{ name: 'readme.txt', data: Buffer.from('hello') }]),
  }),
);
// Refused by the server itself, before the engine.
const zeroByte = fc.constantFrom('step', 'stp', 'stl', 'obj', 'zip').map((ext) => ({
  kind: 'zero-byte file',
  filename: `empty.${ext}`,
  content: Buffer.alloc(0),
  refused: { status: 400, error: 'invalid_request', says: 'is empty' },
}));
const overLimit = fc.integer({ min: LIMIT_MB * 1024 * 1024 + 1, max: 3 * 1024 * 1024 }).map((n) => ({
  kind: 'file over the upload limit',
  filename: 'huge.stl',
  content: Buffer.alloc(n, 0x20),
  refused: { status: 413, error: 'file_too_large', says: `${LIMIT_MB} MB upload limit` },
}));
const wrongType = fc.constantFrom('exe', 'png', 'txt', 'step.exe', 'igs', '').map((ext) => ({
  kind: 'unsupported file type',
  filename: ext ? `model.${ext}` : 'model',
  content: Buffer.from('MZ not geometry'),
  refused: {
    status: 400,
    error: 'unsupported_file_type',
    says: unsupportedFileTypeMessage(ext ? (ext.split('.').pop() as string) : 'model'),
  },
}));
const badUnits = fc
  .string({ minLength: 1, maxLength: 6 })
  .filter((u) => u.trim() !== '' && !(LENGTH_UNITS as readonly string[]).includes(u.trim().toLowerCase()))
  .map((units) => ({
    kind: 'unknown units',
    filename: 'part.stl',
    content: stlBytes(),
    units,
    refused: { status: 400, error: 'invalid_request', says: 'units must be one of' },
  }));

const uploads: fc.Arbitrary<Upload> = fc.oneof(
  { arbitrary: truncatedStep, weight: 6 },
  { arbitrary: garbageStep, weight: 6 },
  { arbitrary: lyingStl, weight: 6 },
  { arbitrary: brokenAsciiStl, weight: 6 },
  { arbitrary: badObj, weight: 8 },
  { arbitrary: hostileZip, weight: 12 },
  { arbitrary: zeroByte, weight: 6 },
  { arbitrary: overLimit, weight: 4 },
  { arbitrary: wrongType, weight: 4 },
  { arbitrary: badUnits, weight: 4 },
);

function form(u: Upload): FormData {
  const f = new FormData();
  if (u.units !== undefined) f.append('units', u.units);
  f.append('file', new Blob([u.content]), u.filename);
  return f;
}

// Its server runs on SQLite whatever the step, so it runs once: in the SQLite step of `npm test`.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
  'fuzz: malformed uploads to POST /api/convert-step against the real server',
  () => {
    const server = new ServerProcess(
      {
        MAX_UPLOAD_MB: String(LIMIT_MB),
        ZIP_MAX_EXPANDED_MB: String(ZIP_LIMIT_MB),
      },
      undefined,
      { memoryProbe: true },
    );
    let cookie = '';

    beforeAll(async () => {
      uploadFixtures(); // built once (a few seconds) before the clock of the first request starts
      await server.start();
      cookie = await server.register();
    }, 300_000);
    afterAll(async () => {
      await server.stop();
    });

    it(`answers ${RUNS} generated uploads with a clear 4xx and keeps none of them`, async () => {
      const tally = new FuzzTally('POST /api/convert-step');
      const post = (u: Upload) =>
        sendWithin(`${server.base}/api/convert-step`, {
          method: 'POST',
          headers: { cookie, 'sec-fetch-site': 'same-origin' },
          body: form(u),
        });
      // A warm-up pass of other cases first, so that the baseline has the code, the engine pool and the
      // allocator arenas these uploads use (what a second pass must not grow, as in fuzz-submit).
      const warmUp = fc.sample(uploads, { seed: SEED + 1, numRuns: WARM_UP_RUNS });
      for (let i = 0; i < warmUp.length; i += CONCURRENCY)
        await Promise.all(warmUp.slice(i, i + CONCURRENCY).map(post));
      // Memory is read after two full garbage collections (memory-probe.cjs), as in fuzz-submit: live
      // memory, not how much heap V8 kept after the big uploads (without a GC the RSS read 0.9–1.12×).
      const rssBefore = server.rssKb();
      const before = await server.memoryAfterGc();
      const pid = server.pid;
      const engineCpu0 = server.childCpuSeconds();
      let engineRuns = 0;
      const t0 = performance.now();

      // The cases are drawn up front (same seed, same cases) so that CONCURRENCY of them can be in flight.
      const cases = fc.sample(uploads, { seed: SEED, numRuns: RUNS });
      const failures: string[] = [];
      const check = async (u: Upload) => {
        const res = await post(u);
        tally.record(u.kind, res);
        if (!u.refused) engineRuns++;
        const what = `${u.kind} (${u.filename}, ${u.content.length} B): ${res.status} ${res.text.slice(0, 300)}`;
        const reply = JSON.parse(res.status ? res.text || '{}' : '{}') as {
          error?: string;
          message?: string;
        };
        const ok =
          res.status !== 0 &&
          (u.refused
            ? res.status === u.refused.status &&
              reply.error === u.refused.error &&
              (!u.refused.says || (reply.message ?? '').includes(u.refused.says))
            : // The engine's verdict: a 4xx with a sentence, never a crash of the server or a stored upload.
              res.status >= 400 &&
              res.status < 500 &&
              reply.error !== 'engine_unavailable' &&
              (reply.message?.length ?? 0) > 10);
        if (!ok) failures.push(u.refused ? `${what} (expected ${JSON.stringify(u.refused)})` : what);
      };
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < cases.length && failures.length < 10) await check(cases[next++] as Upload);
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      await new Promise((r) => setTimeout(r, 2000)); // the last engine processes reaped, the heap settled
      const engineCpuSeconds = Math.round(server.childCpuSeconds() - engineCpu0);
      const rssAfter = server.rssKb();
      const after = await server.memoryAfterGc();
      const live = (m: MemoryReading) => m.heapUsedKb + m.externalKb;
      const leftovers = await leftBehind(server.dataDir);
      tally.print({
        seed: SEED,
        passedServerChecks: engineRuns,
        seconds: Math.round(seconds),
        concurrency: CONCURRENCY,
        engineCpuSeconds,
        liveKb: `${live(before)} → ${live(after)}`,
        rssAfterGcKb: `${before.rssKb} → ${after.rssKb}`,
        rssNoGcKb: `${rssBefore} → ${rssAfter}`,
        restarts: server.pid === pid && server.running ? 0 : 1,
        leftovers,
      });
      expect(failures).toEqual([]);
      expect(tally.serverErrors).toBe(0);
      expect(tally.hangs).toBe(0);
      expect(server.running && server.pid === pid).toBe(true);
      expect(leftovers).toEqual({ jobs: 0, uploads: 0, files: [] });
      expect(live(after), 'live heap + external after the run').toBeLessThanOrEqual(live(before) * 1.1);
      expect(after.rssKb, 'RSS after a full GC, after the run').toBeLessThanOrEqual(before.rssKb * 1.1);
    }, 900_000);
  },
);
