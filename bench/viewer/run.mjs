// Viewer benchmark: headless Chromium with software WebGL (SwiftShader) loads a 1M-tetrahedron result
// into the real viewer page and measures load, field-mode switch, animation frame change and slicing.
// Usage: node bench/viewer/run.mjs   (writes bench/viewer/out/results.json; figures in README.md)
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'bench', 'viewer', 'out');
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (!existsSync(join(OUT, 'result.bin')) || process.argv.includes('--regenerate')) {
  run(join(ROOT, '.venv', 'bin', 'python'), ['bench/viewer/make_result.py']);
}
run('npm', ['run', '--silent', 'build', '-w', 'web']);
run('npx', ['vite', 'build', '--config', 'bench/viewer/vite.config.ts', '--logLevel', 'warn']);

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.bin': 'application/octet-stream',
  '.json': 'application/json',
};
function fileFor(url) {
  const path = decodeURIComponent(new URL(url, 'http://x').pathname);
  if (path.startsWith('/data/')) return join(OUT, normalize(path.slice(6)));
  if (path.startsWith('/bench/')) return join(OUT, 'page', normalize(path.slice(7) || 'index.html'));
  return join(ROOT, 'web', 'dist', normalize(path));
}
const server = createServer((req, res) => {
  const file = fileFor(req.url ?? '/');
  if (!file.startsWith(ROOT) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://localhost:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  page.on('console', (m) => console.log(`page: ${m.text()}`));
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  await page.goto(`${origin}/bench/index.html`);
  await page.waitForFunction(() => 'benchResult' in window, undefined, { timeout: 300_000, polling: 500 });
  const result = await page.evaluate(() => window.benchResult);
  await page.screenshot({ path: join(OUT, 'bench.png') });
  const chromiumVersion = browser.version();
  const report = { chromium: chromiumVersion, renderer: 'SwiftShader (software WebGL)', ...result };
  writeFileSync(join(OUT, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  if (result.error) process.exitCode = 1;
} finally {
  await browser.close();
  server.close();
}
