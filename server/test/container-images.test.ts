import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// CI has no container runtime, so the Dockerfile and compose.yaml are checked statically here, and the
// worker entrypoint runs outside a container (server/test/compute/aws-batch.test.ts runs it on real jobs
// against moto). scripts/smoke-images.sh builds and runs the images where docker or podman works; the
// static checks below each come from a failure that build found (docs/deployment.md).
const ROOT = resolve(import.meta.dirname, '..', '..');
const SERVER_DIR = resolve(ROOT, 'server');

interface Stage {
  name: string;
  from: string;
  lines: string[];
}

function stages(dockerfile: string): Stage[] {
  const out: Stage[] = [];
  const text = dockerfile.replace(/\\\n/g, ' ');
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from) out.push({ from: from[1] as string, name: from[2] ?? '', lines: [] });
    else out.at(-1)?.lines.push(line);
  }
  return out;
}

describe('container images', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const all = stages(dockerfile);

  it('Dockerfile: multi-stage, named unique stages, pinned bases, server and worker targets, valid COPY sources', async () => {
    const names = all.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['node-deps', 'web-build', 'engine', 'runtime', 'server', 'worker']),
    );
    const args = Object.fromEntries(
      [...dockerfile.matchAll(/^ARG\s+(\w+)=(\S+)/gm)].map((m) => [m[1] as string, m[2] as string]),
    );
    for (const s of all) {
      const base = s.from.replace(/^\$\{(\w+)\}$/, (_, k: string) => args[k] ?? '');
      // Either an earlier stage or an image with an explicit tag (no implicit :latest).
      if (!names.includes(base)) expect(base, s.from).toMatch(/^[\w./-]+:[\w.-]+$/);
      for (const line of s.lines) {
        const copy = /^COPY\s+(--from=(\S+)\s+)?(.+)$/i.exec(line);
        if (!copy) continue;
        const parts = (copy[3] as string).split(/\s+/);
        if (copy[2]) {
          expect(names.indexOf(copy[2]), line).toBeGreaterThanOrEqual(0);
          expect(names.indexOf(copy[2]), line).toBeLessThan(names.indexOf(s.name));
        } else {
          for (const src of parts.slice(0, -1)) expect(existsSync(join(ROOT, src)), line).toBe(true);
        }
      }
    }
    // The image runs the server with the node flags `npm start` uses (scripts/build-server.mjs).
    // @ts-expect-error plain ESM helper without types
    const { SERVER_ENV, SERVER_NODE_ARGS } = (await import('../../scripts/build-server.mjs')) as {
      SERVER_ENV: Record<string, string>;
      SERVER_NODE_ARGS: string[];
    };
    expect(SERVER_NODE_ARGS).toContain('--enable-source-maps');
    // …and the environment it gives the server (malloc arenas: issue 20's RSS after the fuzz run).
    for (const [name, value] of Object.entries(SERVER_ENV))
      expect(all.find((s) => s.name === 'runtime')?.lines, name).toContain(`ENV ${name}=${value}`);
    expect(dockerfile).toContain(
      `ENTRYPOINT ${JSON.stringify(['node', ...SERVER_NODE_ARGS, '/app/server/dist/main.js']).replaceAll(',', ', ')}`,
    );
    expect(all.find((s) => s.name === 'worker')?.lines).toContain('CMD ["worker"]');
    expect(all.find((s) => s.name === 'server')?.lines).toContain('CMD ["serve"]');
    expect(readFileSync(join(ROOT, 'engine', 'pyproject.toml'), 'utf8')).toMatch(/ngsolve==/);
  });

  it('Dockerfile: the web build stage copies every file the web app imports from outside web/', () => {
    // The Validation page imports docs/validation/report.json and bench/*/summary.json: a build
    // context without them fails inside the image build (found by building the image with podman).
    const stageCopies = (name: string): string[] => {
      const stage = all.find((s) => s.name === name);
      if (!stage) return [];
      const own = stage.lines.flatMap((line) => {
        const copy = /^COPY\s+(?!--from)(.+)$/i.exec(line);
        return copy ? (copy[1] as string).split(/\s+/).slice(0, -1) : [];
      });
      return [...own, ...stageCopies(stage.from)];
    };
    const copied = stageCopies('web-build');
    const webDir = join(ROOT, 'web');
    const outside = new Set<string>();
    const sources = readdirSync(join(webDir, 'src'), { recursive: true, withFileTypes: true }).filter(
      (e) => e.isFile() && /\.tsx?$/.test(e.name),
    );
    for (const entry of sources) {
      const file = join(entry.parentPath, entry.name);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:from\s+|import\.meta\.glob(?:<[^>]*>)?\()'(\.\.?\/[^']+)'/g)) {
        const target = relative(ROOT, resolve(dirname(file), m[1] as string));
        if (!target.startsWith(`web${sep}`)) outside.add(target);
      }
    }
    expect([...outside].sort()).toEqual(
      expect.arrayContaining(['docs/validation/report.json', 'bench/*/summary.json']),
    );
    for (const target of outside)
      expect(
        copied.some((src) => target === src || target.startsWith(`${src}/`)),
        `${target} is imported by web/src but not copied into the web-build stage`,
      ).toBe(true);
  });

  it("Dockerfile: the runtime stage copies the workspaces' own node_modules the lockfile has", () => {
    // npm installs a workspace's dependency under <workspace>/node_modules when its version differs from the
    // hoisted one; the image's server failed to start on `@fastify/cookie` without server/node_modules.
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    const own = new Set(
      Object.keys(lock.packages)
        .filter((k) => !k.startsWith('node_modules/') && k.includes('/node_modules/'))
        .map((k) => k.slice(0, k.indexOf('/node_modules/'))),
    );
    const runtime = all.find((s) => s.name === 'runtime')?.lines ?? [];
    for (const workspace of ['server', 'contracts'].filter((w) => own.has(w)))
      expect(runtime, workspace).toContain(
        `COPY --from=node-deps /app/${workspace}/node_modules ${workspace}/node_modules`,
      );
    expect(own.has('server')).toBe(true);
  });

  it('Dockerfile: native addons the server loads are built, though install scripts are skipped', () => {
    // With `npm ci --ignore-scripts` alone the server image could not open its SQLite database ("Could not
    // locate the bindings file"): found running the image with podman.
    const deps = all.find((s) => s.name === 'node-deps')?.lines.join('\n') ?? '';
    const server = JSON.parse(readFileSync(join(ROOT, 'server', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const native = Object.keys(server.dependencies).filter((name) =>
      existsSync(join(ROOT, 'node_modules', name, 'binding.gyp')),
    );
    expect(native).toContain('better-sqlite3');
    for (const name of native)
      if (deps.includes('--ignore-scripts'))
        expect(deps, name).toMatch(new RegExp(`npm rebuild [^\\n]*${name}`));
  });

  it('Dockerfile: the engine stage installs the system libraries setup-engine.sh installs for NGSolve and gmsh', () => {
    // A slim Debian lacks libquadmath (NGSolve's wheel links it unbundled) and libGL/libgomp (gmsh):
    // the image's `import ngsolve, gmsh` failed until the stage installed them. One list, two places.
    const setup = readFileSync(join(ROOT, 'scripts', 'setup-engine.sh'), 'utf8');
    const wanted = (/missing="([^"]+)"/.exec(setup)?.[1] ?? '').split(/\s+/).filter(Boolean);
    expect(wanted).toEqual(expect.arrayContaining(['libquadmath0', 'libgl1', 'libgomp1']));
    const engine = all.find((s) => s.name === 'engine')?.lines.join(' ') ?? '';
    for (const pkg of wanted) expect(engine, pkg).toMatch(new RegExp(`apt-get install[^&]*\\b${pkg}\\b`));
  });

  it('compose.yaml: server, workers, PostgreSQL, Redis and an S3-compatible store, built from the Dockerfile targets', () => {
    const compose = parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as {
      services: Record<
        string,
        { build?: { target: string }; image?: string; environment?: Record<string, string> }
      >;
    };
    const svc = compose.services;
    expect(Object.keys(svc)).toEqual(
      expect.arrayContaining(['server', 'worker', 'postgres', 'redis', 'minio']),
    );
    const names = all.map((s) => s.name);
    expect(names).toContain(svc.server?.build?.target);
    expect(names).toContain(svc.worker?.build?.target);
    expect(svc.server?.environment).toMatchObject({ STORAGE_BACKEND: 's3', COMPUTE_BACKEND: 'bullmq' });
    expect(svc.server?.environment?.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(svc.worker?.environment?.REDIS_URL).toBe('redis://redis:6379');
  });

  it('the worker entrypoint (the compiled server the images run) works outside a container: usage without an id, and a job it does not find is skipped', () => {
    const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-server.mjs')], {
      encoding: 'utf8',
    });
    expect(build.status, build.stderr).toBe(0);
    const dataDir = mkdtempSync(join(tmpdir(), 'fieldline-batch-run-'));
    try {
      const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
      const usage = spawnSync(process.execPath, ['dist/main.js', 'batch-run'], {
        cwd: SERVER_DIR,
        env,
        encoding: 'utf8',
      });
      expect(usage.status).toBe(2);
      expect(usage.stderr).toContain('batch-run <jobId>');
      const id = '00000000-0000-4000-8000-000000000000';
      const run = spawnSync(process.execPath, ['dist/main.js', 'batch-run', id], {
        cwd: SERVER_DIR,
        env,
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain(`batch-run ${id}: skipped`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
