import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

export interface RunningServer {
  origin: string;
  dataDir: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? res(address.port) : rej(new Error('no port')),
      );
    });
  });
}

let built = false;
/** The compiled server `npm start` runs (server/dist/main.js), rebuilt when its sources changed. */
function serverEntry(): string {
  if (!built) {
    const result = spawnSync(process.execPath, ['scripts/build-server.mjs'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error(`building the server failed (exit ${result.status})`);
    built = true;
  }
  return join(REPO_ROOT, 'server', 'dist', 'main.js');
}

/** Starts the real server (as `npm start` runs it) on a free port with a fresh data dir. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldline-e2e-'));
  const origin = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', serverEntry(), 'serve'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: origin,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${origin}/api/docs`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    origin,
    dataDir,
    async stop() {
      // A server that has already died (a crash under test) emits no second 'exit': don't wait for one.
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
