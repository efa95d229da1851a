// Installs what `npm start` and `npm test` need when it is missing: npm packages, the engine's .venv and the
// forked spares' compiled launcher (build-launcher.mjs).
// Only Node built-ins here: this runs before node_modules exists.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSpareLauncher } from './build-launcher.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`\n${cmd} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

function lockHash() {
  const lock = join(ROOT, 'package-lock.json');
  return existsSync(lock) ? createHash('sha256').update(readFileSync(lock)).digest('hex') : 'none';
}

export function ensureNodeModules() {
  const stamp = join(ROOT, 'node_modules', '.fieldline-stamp');
  const want = lockHash();
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  console.log('fieldline: installing npm packages');
  run('npm', ['install', '--no-audit', '--no-fund']);
  writeFileSync(stamp, lockHash());
}

export function ensureEngine() {
  run('bash', ['scripts/setup-engine.sh']);
  // The forked spares' compiled launcher; without a C compiler the Python one is used (it says so).
  ensureSpareLauncher();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureNodeModules();
  ensureEngine();
}
