#!/usr/bin/env node
// `fieldline <serve|worker|migrate|admin ...>`: runs the compiled server, server/dist/main.js. In a
// checkout it is (re)built first when the sources changed (scripts/build-server.mjs); an image ships it built.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const builder = join(here, '..', '..', 'scripts', 'build-server.mjs');
if (existsSync(builder)) await (await import(pathToFileURL(builder).href)).ensureServerBuilt();
const main = join(here, '..', 'dist', 'main.js');
const result = spawnSync(process.execPath, ['--enable-source-maps', main, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
