// Compiles the server (server/src + the contracts it imports) into one ES module, server/dist/main.js,
// which production runs with plain `node` (no TypeScript loader). npm packages stay external: they are
// loaded from node_modules as usual. `ensureServerBuilt()` rebuilds only when the sources changed.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
export const SERVER_ENTRY = join(ROOT, 'server', 'dist', 'main.js');
/**
 * Node flags the server runs with (`npm start`, bench/api; the Dockerfile's ENTRYPOINT repeats them).
 * A fixed 16 MB young generation: V8's default starts small and, under status polls (≈ 11 kB of
 * Node HTTP objects each), scavenged every ≈ 4 MB — 48–78 pauses per 20,000 polls; with 16 MB,
 * 15–16 and about half the GC wall time (issue 20, bench/api/README.md). Costs ≈ 30 MB of RSS.
 */
export const SERVER_NODE_ARGS = [
  '--enable-source-maps',
  '--min-semi-space-size=16',
  '--max-semi-space-size=16',
];
/**
 * Environment the server process runs with (`npm start`, bench/api, the server test harness; the
 * Dockerfile sets the same ENV). glibc malloc otherwise keeps up to 8 arenas per core, each holding
 * freed memory of its own. Over a pass of 1,000 malformed submit bodies, RSS after a forced GC grew
 * 1.04–1.11× with the default (5 runs) and moved 0.88–1.125× with two arenas (11 runs), with a flat heap.
 * A fixed mmap threshold of 64 kB (which also stops glibc raising it after large frees) puts every large
 * block in its own mapping, given back when freed: 0.87–1.014× in 7 runs on a quiet machine (issue 20,
 * fuzz-submit test). The engine's processes get an environment of their own (engine-runner.ts).
 */
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '65536' };
const STAMP = join(ROOT, 'server', 'dist', '.source-hash');
const SOURCES = ['server/src', 'server/package.json', 'contracts/src', 'scripts/build-server.mjs'];

function sourceHash() {
  const hash = createHash('sha256');
  const walk = (p) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) for (const name of readdirSync(p).sort()) walk(join(p, name));
    else hash.update(p).update(readFileSync(p));
  };
  for (const s of SOURCES) walk(join(ROOT, s));
  return hash.digest('hex');
}

export async function buildServer() {
  const { build } = await import('esbuild');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'server', 'package.json'), 'utf8'));
  // Every dependency but our own contracts (TypeScript sources, compiled into the bundle) stays external.
  const external = Object.keys(pkg.dependencies)
    .filter((name) => !name.startsWith('@fieldline/'))
    .flatMap((name) => [name, `${name}/*`]);
  await build({
    entryPoints: [join(ROOT, 'server', 'src', 'main.ts')],
    outfile: SERVER_ENTRY,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    external,
    logLevel: 'warning',
  });
  // The storage worker thread's entry (server/src/storage/worker-pool.ts loads it beside the module that
  // starts it: server/dist/storage-worker.mjs here); plain JavaScript with Node's own modules only.
  await build({
    entryPoints: [join(ROOT, 'server', 'src', 'storage', 'storage-worker.mjs')],
    outfile: join(ROOT, 'server', 'dist', 'storage-worker.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
}

/** Builds server/dist/main.js unless it was built from exactly these sources. */
export async function ensureServerBuilt() {
  const want = sourceHash();
  if (existsSync(SERVER_ENTRY) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === want) return false;
  console.log('fieldline: building the server');
  await buildServer();
  writeFileSync(STAMP, want);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await ensureServerBuilt();
}
