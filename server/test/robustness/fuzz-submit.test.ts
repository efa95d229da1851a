import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from '../support/box-mesh.ts';
import { jsonHeaders, type MemoryReading, ServerProcess } from '../support/server-process.ts';
import { FuzzTally, leftBehind, sendWithin } from './fuzz-support.ts';

// Seeded and repeatable: FUZZ_SEED and FUZZ_SUBMIT_RUNS override (FUZZ_SEED is printed with the counts).
const SEED = Number(process.env.FUZZ_SEED ?? 20_2026);
const RUNS = Number(process.env.FUZZ_SUBMIT_RUNS ?? 1000);

/** A valid analysis body: a 2×1×1-cell box (12 tetrahedra), 0 V and 1 V on opposite faces. */
function validBody() {
  const mesh = boxMesh([2, 1, 1], [2, 1, 1]);
  return {
    mesh_data: { vertices: mesh.vertices, faces: mesh.faces, tetrahedra: mesh.tetrahedra },
    config: {
      analysisType: 'em',
      frequency: 0,
      dirichletFaceConditions: [
        { faces: facesOnPlane(mesh, 2, 0), voltage: 0 },
        { faces: facesOnPlane(mesh, 2, 1), voltage: 1 },
      ],
    },
  };
}
type Body = ReturnType<typeof validBody>;
const NV = validBody().mesh_data.vertices.length;
const NT = validBody().mesh_data.tetrahedra.length;

/** One generated request and what the server must answer. */
interface Case {
  kind: string;
  text: string;
  contentType?: string;
  status: number;
  error: string;
  /** The message must contain this (the field's path, or the spec's sentence). */
  says?: string;
}

const body = (mutate: (b: Body) => void) => {
  const b = validBody();
  mutate(b);
  return JSON.stringify(b);
};

// Fields with a known type, and values of some other type for each.
const notANumber = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant({}),
  fc.constant([]),
);
const notAnInteger = fc.oneof(
  notANumber,
  fc.double({ min: 0.01, max: 1e6, noNaN: true }).filter((x) => !Number.isInteger(x)),
);
const notAnArray = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.boolean(),
  fc.constant({ length: 3 }),
);
const wrongType: fc.Arbitrary<Case> = fc
  .tuple(
    fc.constantFrom(
      'vertex',
      'face index',
      'tet index',
      'vertices',
      'tetrahedra',
      'mesh_data',
      'frequency',
      'analysisType',
      'conditions',
    ),
    fc.nat({ max: 11 }),
    fc.nat({ max: 3 }),
    notANumber,
    notAnInteger,
    notAnArray,
  )
  .map(([field, i, k, num, int, arr]) => {
    const paths: Record<string, [string, (b: Body) => void]> = {
      vertex: [
        `mesh_data.vertices.${i}.${k % 3}`,
        (b) => ((b.mesh_data.vertices[i] as unknown[])[k % 3] = num),
      ],
      'face index': [
        `mesh_data.faces.${i}.${k % 3}`,
        (b) => ((b.mesh_data.faces[i] as unknown[])[k % 3] = int),
      ],
      'tet index': [
        `mesh_data.tetrahedra.${i}.${k}`,
        (b) => ((b.mesh_data.tetrahedra[i] as unknown[])[k] = int),
      ],
      vertices: ['mesh_data.vertices', (b) => ((b.mesh_data as Record<string, unknown>).vertices = arr)],
      tetrahedra: [
        'mesh_data.tetrahedra',
        (b) => ((b.mesh_data as Record<string, unknown>).tetrahedra = arr),
      ],
      mesh_data: ['mesh_data', (b) => ((b as Record<string, unknown>).mesh_data = [arr])],
      frequency: ['config.frequency', (b) => ((b.config as Record<string, unknown>).frequency = num)],
      analysisType: [
        'config.analysisType',
        (b) => ((b.config as Record<string, unknown>).analysisType = num ?? 7),
      ],
      conditions: [
        'config.dirichletFaceConditions',
        (b) => ((b.config as Record<string, unknown>).dirichletFaceConditions = arr),
      ],
    };
    const [path, mutate] = paths[field] as [string, (b: Body) => void];
    return { kind: 'wrong type', text: body(mutate), status: 400, error: 'invalid_request', says: path };
  });

// NaN and ±Infinity: not JSON at all, or (1e999) JSON that parses to Infinity.
const nonFinite: fc.Arbitrary<Case> = fc
  .tuple(
    fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e999', '-1e999'),
    fc.nat({ max: NV - 1 }),
    fc.nat({ max: 2 }),
  )
  .map(([literal, i, k]) => {
    const marker = 987654.125;
    const text = body((b) => {
      (b.mesh_data.vertices[i] as number[])[k] = marker;
    }).replace(String(marker), literal);
    const parses = literal.endsWith('e999');
    return parses
      ? {
          kind: 'NaN/Inf coordinate',
          text,
          status: 400,
          error: 'invalid_request',
          says: `mesh_data.vertices.${i}.${k}`,
        }
      : { kind: 'NaN/Inf coordinate', text, status: 400, error: 'bad_request' };
  });

const missingVertex: fc.Arbitrary<Case> = fc
  .tuple(
    fc.nat({ max: NT - 1 }),
    fc.nat({ max: 3 }),
    fc.oneof(fc.integer({ min: NV, max: 2 ** 31 }), fc.integer({ min: -(2 ** 31), max: -1 })),
    fc.boolean(),
  )
  .map(([t, k, index, inFaces]) => {
    const text = body((b) => {
      if (inFaces) (b.mesh_data.faces[t % b.mesh_data.faces.length] as number[])[k % 3] = index;
      else (b.mesh_data.tetrahedra[t] as number[])[k] = index;
    });
    const where = inFaces ? `mesh_data.faces.${t % 20}` : `mesh_data.tetrahedra.${t}`;
    if (index < 0)
      return {
        kind: 'missing vertex',
        text,
        status: 400,
        error: 'invalid_request',
        says: where.split('.').slice(0, 2).join('.'),
      };
    return {
      kind: 'missing vertex',
      text,
      status: 400,
      error: 'invalid_mesh',
      says: inFaces ? 'a face refers to a missing vertex' : 'a tetrahedron refers to a missing vertex',
    };
  });

const wrongArity: fc.Arbitrary<Case> = fc
  .tuple(fc.nat({ max: NT - 1 }), fc.constantFrom(0, 1, 2, 3, 5, 8))
  .map(([t, n]) => ({
    kind: 'tetrahedron of the wrong size',
    text: body((b) => {
      b.mesh_data.tetrahedra[t] = Array.from({ length: n }, (_, j) => j);
    }),
    status: 400,
    error: 'invalid_mesh',
    says: 'a tetrahedron refers to a missing vertex',
  }));

// Flat tetrahedra: a repeated corner, or four corners on one plane.
const degenerate: fc.Arbitrary<Case> = fc
  .tuple(fc.nat({ max: NT - 1 }), fc.nat({ max: 3 }), fc.nat({ max: 3 }), fc.boolean())
  .map(([t, a, b, repeat]) => ({
    kind: 'degenerate tetrahedron',
    text: body((m) => {
      const tet = m.mesh_data.tetrahedra[t] as number[];
      if (repeat) tet[a] = tet[(a + 1 + (b % 3)) % 4] as number;
      else m.mesh_data.tetrahedra[t] = [0, 2, 4, 6]; // four corners on the z = 0 face
    }),
    status: 400,
    error: 'invalid_mesh',
    says: 'tetrahedra with zero volume',
  }));

// Inverted tetrahedra are valid: the engine re-orients them. This user has no tokens, so a body that
// passes every check is refused at admission (402) — which proves it was not refused as malformed.
const inverted: fc.Arbitrary<Case> = fc
  .uniqueArray(fc.nat({ max: NT - 1 }), { minLength: 1, maxLength: NT })
  .map((ts) => ({
    kind: 'inverted tetrahedra (valid)',
    text: body((m) => {
      for (const t of ts) {
        const tet = m.mesh_data.tetrahedra[t] as number[];
        [tet[0], tet[1]] = [tet[1] as number, tet[0] as number];
      }
    }),
    status: 402,
    error: 'insufficient_balance',
  }));

// Up to 1e6 levels; in a passthrough field (kept by the schema) or in place of a typed one.
const deepNesting: fc.Arbitrary<Case> = fc
  .tuple(
    fc.oneof(fc.integer({ min: 65, max: 2000 }), fc.constantFrom(10_000, 100_000, 1_000_000)),
    fc.constantFrom(
      'mesh_data.extra',
      'config.extra',
      'mesh_data.animation',
      'extra',
      'mesh_data.vertices',
      'config',
    ),
    fc.boolean(),
  )
  .map(([depth, where, arrays]) => {
    const [open, close] = arrays ? ['[', ']'] : ['{"a":', '}'];
    const deep = `${open.repeat(depth)}1${close.repeat(depth)}`;
    const marker = '"__DEEP__"';
    const text = body((b) => {
      const [first, second] = where.split('.') as [string, string | undefined];
      const root = b as unknown as Record<string, Record<string, unknown>>;
      if (second) (root[first] as Record<string, unknown>)[second] = '__DEEP__';
      else (root as Record<string, unknown>)[first] = '__DEEP__';
    }).replace(marker, deep);
    return {
      kind: 'deep nesting',
      text,
      status: 400,
      error: 'invalid_request',
      says: 'nested more than 64 levels',
    };
  });

// Large arrays (0.2–2 MB of JSON) with one defect far down.
const hugeArrays: fc.Arbitrary<Case> = fc
  .tuple(
    fc.integer({ min: 10_000, max: 100_000 }),
    fc.constantFrom('vertices', 'tetrahedra', 'faces', 'region_names'),
  )
  .map(([n, what]) => {
    const text = body((b) => {
      const m = b.mesh_data as Record<string, unknown>;
      if (what === 'vertices')
        m.vertices = [
          ...b.mesh_data.vertices,
          ...Array.from({ length: n }, (_, i) => [i, 0, i === n - 1 ? 'x' : 0]),
        ];
      if (what === 'tetrahedra')
        m.tetrahedra = Array.from({ length: n }, (_, i) => (i === n - 1 ? [0, 1, 2, n] : [0, 1, 3, 7]));
      if (what === 'faces')
        m.faces = Array.from({ length: n }, (_, i) => (i === n - 1 ? [0, 1, -1] : [0, 1, 2]));
      if (what === 'region_names')
        m.region_names = Array.from({ length: n }, (_, i) => (i === n - 1 ? 5 : 'body'));
    });
    const says = {
      vertices: 'mesh_data.vertices',
      tetrahedra: 'a tetrahedron refers to a missing vertex',
      faces: 'mesh_data.faces',
      region_names: 'mesh_data.region_names',
    }[what];
    return {
      kind: 'huge array',
      text,
      status: 400,
      error: what === 'tetrahedra' ? 'invalid_mesh' : 'invalid_request',
      says,
    };
  });

const notJson: fc.Arbitrary<Case> = fc.oneof(
  fc.nat({ max: 2000 }).map((cut) => {
    const text = JSON.stringify(validBody());
    return {
      kind: 'truncated or garbage JSON',
      text: text.slice(0, Math.min(cut, text.length - 1)),
      status: 400,
      error: 'bad_request',
    };
  }),
  fc
    .string({ minLength: 1, maxLength: 200 })
    .filter((s) => {
      try {
        JSON.parse(s);
        return false;
      } catch {
        return true;
      }
    })
    .map((text) => ({ kind: 'truncated or garbage JSON', text, status: 400, error: 'bad_request' })),
  fc
    .constantFrom('null', '[]', '"mesh"', '42', 'true', '{}')
    .map((text) => ({ kind: 'wrong top-level value', text, status: 400, error: 'invalid_request' })),
);

const wrongMediaType: fc.Arbitrary<Case> = fc
  .constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'image/png')
  .map((contentType) => ({
    kind: 'wrong content type',
    text: JSON.stringify(validBody()),
    contentType,
    status: 415,
    error: 'unsupported_media_type',
  }));

const cases: fc.Arbitrary<Case> = fc.oneof(
  { arbitrary: wrongType, weight: 25 },
  { arbitrary: nonFinite, weight: 10 },
  { arbitrary: missingVertex, weight: 12 },
  { arbitrary: wrongArity, weight: 5 },
  { arbitrary: degenerate, weight: 10 },
  { arbitrary: inverted, weight: 5 },
  { arbitrary: deepNesting, weight: 6 },
  { arbitrary: hugeArrays, weight: 3 },
  { arbitrary: notJson, weight: 12 },
  { arbitrary: wrongMediaType, weight: 3 },
);

// Its server runs on SQLite whatever the step, so it runs once: in the SQLite step of `npm test`.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
  'fuzz: malformed POST /api/fea/submit bodies against the real server',
  () => {
    const server = new ServerProcess({ WELCOME_GRANT_TOKENS: '0', JOB_SLOTS: '1' }, undefined, {
      memoryProbe: true,
    });
    let cookie = '';

    beforeAll(async () => {
      await server.start();
      cookie = await server.register();
    }, 300_000);
    afterAll(async () => {
      await server.stop();
    });

    it(`answers ${RUNS} generated bodies and one over the size limit with a clear 4xx, leaving nothing behind`, async () => {
      const tally = new FuzzTally('POST /api/fea/submit');
      const pid = server.pid;
      const send = (c: { text: string; contentType?: string }) =>
        sendWithin(`${server.base}/api/fea/submit`, {
          method: 'POST',
          headers: { ...jsonHeaders(cookie), 'content-type': c.contentType ?? 'application/json' },
          body: c.text,
        });

      await fc.assert(
        fc.asyncProperty(cases, async (c) => {
          const res = await send(c);
          tally.record(c.kind, res);
          expect(res.status, `${c.kind}: ${res.text.slice(0, 300)}`).toBe(c.status);
          const reply = JSON.parse(res.text) as { error?: string; message?: string };
          expect(reply.error, res.text.slice(0, 300)).toBe(c.error);
          if (c.says) expect(reply.message).toContain(c.says);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );

      // Over the 256 MB body limit: refused from the declared length, before the body is read.
      const over = await declaredTooLarge(server.port, cookie, 300 * 1024 * 1024);
      tally.record('body over the limit', over);
      expect(over.status).toBe(413);

      // Memory: what stays alive after the run. Each reading follows two full garbage collections
      // (memory-probe.cjs), so it measures live memory, not how much heap V8 kept after the big bodies.
      // The first pass is the baseline (it loads the code the later passes run); the same kinds of
      // bodies sent again must not leave more behind (a leak would, per request).
      const rssNoGcBefore = server.rssKb();
      const before = await server.memoryAfterGc();
      for (const c of fc.sample(cases, { seed: SEED + 1, numRuns: RUNS })) await send(c);
      const rssNoGcAfter = server.rssKb();
      const after = await server.memoryAfterGc();
      const live = (m: MemoryReading) => m.heapUsedKb + m.externalKb;
      const leftovers = await leftBehind(server.dataDir);
      tally.print({
        seed: SEED,
        liveKb: `${live(before)} → ${live(after)}`,
        rssAfterGcKb: `${before.rssKb} → ${after.rssKb}`,
        rssWithin10pc: after.rssKb <= before.rssKb * 1.1,
        rssNoGcKb: `${rssNoGcBefore} → ${rssNoGcAfter}`,
        restarts: server.pid === pid && server.running ? 0 : 1,
        leftovers,
      });
      expect(tally.serverErrors).toBe(0);
      expect(tally.hangs).toBe(0);
      expect(server.running && server.pid === pid).toBe(true);
      expect(leftovers).toEqual({ jobs: 0, uploads: 0, files: [] });
      expect(live(after), 'live heap + external after the second pass').toBeLessThanOrEqual(
        live(before) * 1.1,
      );
      // The issue: "server RSS back within 10 % after the run", read after the same full GCs. It holds with
      // SERVER_ENV (two malloc arenas, a fixed 64 kB mmap threshold), as `npm start` and the image run the
      // server: 0.87–1.014 in 7 quiet runs; with two arenas alone 0.88–1.155, with glibc's defaults
      // 1.04–1.11 (issue20-fuzz-g.md). RSS without a GC is printed only: V8 gives the big bodies' pages
      // back at its next full GC, so it read 0.92–2.1× in the same runs.
      expect(after.rssKb, 'RSS after a full GC, after the second pass').toBeLessThanOrEqual(
        before.rssKb * 1.1,
      );
    }, 600_000);
  },
);

/** Declares a body of `bytes` and sends the first kilobyte: the server must answer without reading the rest. */
function declaredTooLarge(
  port: number,
  cookie: string,
  bytes: number,
): Promise<{ status: number; text: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/fea/submit',
        headers: { ...jsonHeaders(cookie), 'content-length': String(bytes) },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, ms: performance.now() - t0 }));
      },
    );
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.write(`{"mesh_data":${' '.repeat(1024)}`);
  });
}
