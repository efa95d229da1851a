// Compiles the forked spares' launcher (engine/launcher/spare_launcher.c; docs/compute.md "The engine fork
// server") into engine/launcher/build/spare-launcher-<hash of the source>, when that file is missing.
// Run by `npm start` and `npm test` (ensure-deps.mjs) and by the Dockerfile. Without a C compiler, or if the
// compile fails, it says so once and the server uses the Python launcher (spare_launcher.py: the same
// protocol, ≈ 20–30 ms of CPU per job instead of ≈ 1 ms). Only Node built-ins: runs before node_modules.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Where the binary of this source lives (server/src/engine/spare-launcher.ts finds it the same way: a
 * changed source is a new name, so a stale binary is never used).
 */
export function launcherBinaryPath(engineDir = join(ROOT, 'engine')) {
  const source = readFileSync(join(engineDir, 'launcher', 'spare_launcher.c'));
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  return join(engineDir, 'launcher', 'build', `spare-launcher-${hash}`);
}

function compiler() {
  const candidates = [process.env.CC, 'cc', 'gcc', 'clang'].filter(Boolean);
  return candidates.find((cc) => spawnSync(cc, ['--version'], { stdio: 'ignore' }).status === 0);
}

/** The binary's path, compiling it first if needed; null (after saying why) when it cannot be built. */
export function ensureSpareLauncher(engineDir = join(ROOT, 'engine')) {
  const binary = launcherBinaryPath(engineDir);
  if (existsSync(binary)) return binary;
  const cc = compiler();
  if (!cc) {
    console.warn(
      'fieldline: no C compiler (cc, gcc or clang): forked spares start through the Python launcher ' +
        '(≈ 20–30 ms of CPU per job instead of ≈ 1 ms); install gcc to build engine/launcher',
    );
    return null;
  }
  mkdirSync(dirname(binary), { recursive: true });
  const partial = `${binary}.${process.pid}.tmp`; // renamed into place: a reader never sees half a binary
  const source = join(engineDir, 'launcher', 'spare_launcher.c');
  const build = spawnSync(cc, ['-O2', '-Wall', '-o', partial, source], { encoding: 'utf8' });
  if (build.status !== 0) {
    rmSync(partial, { force: true });
    console.warn(
      `fieldline: compiling engine/launcher/spare_launcher.c with ${cc} failed; forked spares start ` +
        `through the Python launcher:\n${(build.stderr || build.error?.message || '').trim()}`,
    );
    return null;
  }
  renameSync(partial, binary);
  console.log(`fieldline: built the spare launcher (${cc}): ${binary}`);
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureSpareLauncher(process.argv[2]);
}
