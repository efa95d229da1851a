import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';

const REPO = resolve(import.meta.dirname, '..', '..', '..');

export interface UploadFixtures {
  dir: string;
  file(name: string): Buffer;
  broken: Record<string, { file: string; kind: string; faces: number[] }>;
}

let cached: UploadFixtures | null = null;

/**
 * STEP/STL/OBJ/ZIP fixtures made in code by the engine's test helpers (fieldline_engine.testing),
 * generated once per version of those helpers and shared by the test files.
 */
export function uploadFixtures(): UploadFixtures {
  if (cached) return cached;
  const sources = ['upload_fixtures.py', 'shapes.py'].map((f) =>
    readFileSync(join(REPO, 'engine', 'fieldline_engine', 'testing', f)),
  );
  const version = createHash('sha256').update(Buffer.concat(sources)).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), `fieldline-upload-fixtures-${version}`);
  if (!existsSync(join(dir, 'manifest.json'))) {
    const building = `${dir}.${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    const run = spawnSync(
      join(REPO, '.venv', 'bin', 'python'),
      ['-m', 'fieldline_engine.testing.upload_fixtures', building],
      {
        cwd: join(REPO, 'engine'),
        encoding: 'utf8',
        env: { ...process.env, PYTHONPATH: join(REPO, 'engine') },
      },
    );
    if (run.status !== 0) throw new Error(`fixture generation failed: ${run.stderr.slice(-2000)}`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
  }
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  cached = { dir, file: (name) => readFileSync(join(dir, name)), broken: manifest.broken };
  return cached;
}

export interface FilePart {
  filename: string;
  content: Buffer;
  field?: string;
}

/** A multipart/form-data body as a browser's FormData sends it. */
export function multipart(file: FilePart | null, fields: [string, string][] = []) {
  const boundary = `----fieldline${randomUUID().replace(/-/g, '')}`;
  const chunks: Buffer[] = [];
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  for (const [name, value] of fields) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** POST /api/convert-step with the spec's form: file, then force_tet=true twice. */
export function convertStep(
  app: FastifyInstance,
  filename: string,
  content: Buffer,
  options: { cookie?: string; units?: string } = {},
) {
  const fields: [string, string][] = [
    ['force_tet', 'true'],
    ['force_tet', 'true'],
  ];
  if (options.units) fields.push(['units', options.units]);
  const body = multipart({ filename, content }, fields);
  return app.inject({
    method: 'POST',
    url: '/api/convert-step',
    payload: body.payload,
    headers: { ...body.headers, ...(options.cookie ? { cookie: options.cookie } : {}) },
  });
}

type Vec3 = [number, number, number];

/** Checks a volume mesh from outside: positive volumes, surface triangles are tetrahedron faces,
 * and every boundary face of the tetrahedra is a surface triangle (watertight). */
export function checkVolumeMesh(vertices: Vec3[], tets: number[][], faces: number[][]) {
  const key = (a: number, b: number, c: number) => [a, b, c].sort((x, y) => x - y).join(',');
  let minVolume = Number.POSITIVE_INFINITY;
  let volume = 0;
  const count = new Map<string, number>();
  for (const t of tets) {
    const [a, b, c, d] = t.map((i) => vertices[i] as Vec3) as [Vec3, Vec3, Vec3, Vec3];
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const w = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
    const det =
      u[0]! * (v[1]! * w[2]! - v[2]! * w[1]!) -
      u[1]! * (v[0]! * w[2]! - v[2]! * w[0]!) +
      u[2]! * (v[0]! * w[1]! - v[1]! * w[0]!);
    minVolume = Math.min(minVolume, det / 6);
    volume += det / 6;
    const [i, j, k, l] = t as [number, number, number, number];
    for (const f of [key(j, k, l), key(i, k, l), key(i, j, l), key(i, j, k)])
      count.set(f, (count.get(f) ?? 0) + 1);
  }
  const surface = new Set(faces.map((f) => key(f[0]!, f[1]!, f[2]!)));
  const surfaceNotOnTets = [...surface].filter((f) => !count.has(f)).length;
  const openBoundary = [...count].filter(([f, n]) => n === 1 && !surface.has(f)).length;
  const overShared = [...count.values()].filter((n) => n > 2).length;
  return { minVolume, volume, surfaceNotOnTets, openBoundary, overShared };
}

/**
 * Tests of engine behaviour that does not touch the database (formats, isolation, diagnostics) run
 * once, in the SQLite pass of `npm test`; the PostgreSQL pass keeps the ones that read and write rows.
 */
export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
