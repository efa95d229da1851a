// `npm start`: install what is missing, build the web app and the server when their sources changed,
// migrate, serve (compiled JavaScript: server/dist/main.js, see scripts/build-server.mjs).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureServerBuilt, SERVER_ENTRY, SERVER_ENV, SERVER_NODE_ARGS } from './build-server.mjs';
import { ensureEngine, ensureNodeModules, ROOT, run } from './ensure-deps.mjs';

function treeHash(dirs) {
  const hash = createHash('sha256');
  const walk = (p) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p).sort())
        if (name !== 'node_modules' && name !== 'dist') walk(join(p, name));
    } else {
      hash.update(p).update(readFileSync(p));
    }
  };
  for (const d of dirs) walk(join(ROOT, d));
  return hash.digest('hex');
}

ensureNodeModules();
ensureEngine();

const stamp = join(ROOT, 'web', 'dist', '.source-hash');
const sources = treeHash([
  'web/src',
  'web/index.html',
  'web/viewer.html',
  'web/vite.config.ts',
  'web/build',
  'web/public',
  'contracts/src',
]);
if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== sources) {
  console.log('fieldline: building the web app');
  run('npm', ['run', 'build', '-w', 'web']);
  writeFileSync(stamp, sources);
}

await ensureServerBuilt();
run(process.execPath, ['--enable-source-maps', SERVER_ENTRY, 'migrate']);
// An operator's own MALLOC_ARENA_MAX (or other setting) wins over SERVER_ENV.
run(process.execPath, [...SERVER_NODE_ARGS, SERVER_ENTRY, 'serve'], {
  env: { ...SERVER_ENV, ...process.env },
});
