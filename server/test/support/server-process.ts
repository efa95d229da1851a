import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SERVER_DIR = resolve(import.meta.dirname, '..', '..');
const ROOT = resolve(SERVER_DIR, '..');
// @ts-expect-error plain ESM helper without types
const { SERVER_ENV, SERVER_NODE_ARGS } = (await import('../../../scripts/build-server.mjs')) as {
  SERVER_ENV: Record<string, string>;
  SERVER_NODE_ARGS: string[];
};

/** What memory-probe.cjs reports, in kB. */
export interface MemoryReading {
  rssKb: number;
  rssAnonKb: number;
  heapTotalKb: number;
  heapUsedKb: number;
  externalKb: number;
}

/**
 * The real server (`fieldline serve`) in a process of its own on a free loopback port: what fault and
 * fuzz suites talk to over HTTP, kill, restart, and measure (RSS from /proc). With `command: 'worker'`
 * it is a `fieldline worker` instead (no port; ready once it logs "worker started").
 */
export class ServerProcess {
  proc: ChildProcess | null = null;
  port = 0;
  starts = 0;
  readonly log: string;

  constructor(
    readonly env: Record<string, string>,
    readonly dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'fieldline-proc-')),
    readonly opts: {
      command?: 'serve' | 'worker';
      name?: string;
      /** Load memory-probe.cjs into the process, for `memoryAfterGc`. */
      memoryProbe?: boolean;
    } = {},
  ) {
    this.log = join(this.dataDir, `${opts.name ?? 'server'}.log`);
  }

  get command(): 'serve' | 'worker' {
    return this.opts.command ?? 'serve';
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.proc?.pid ?? -1;
  }

  get running(): boolean {
    return !!this.proc && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  async start(): Promise<void> {
    if (!this.port) this.port = await freePort();
    const fd = openSync(this.log, 'a');
    const logFrom = statSync(this.log).size;
    // With the node flags and environment `npm start` gives the server, so what is measured is what runs.
    this.proc = spawn(
      process.execPath,
      [...SERVER_NODE_ARGS, '--import', 'tsx', 'src/main.ts', this.command],
      {
        cwd: SERVER_DIR,
        env: {
          ...SERVER_ENV,
          ...process.env,
          ENGINE_PYTHON: join(ROOT, '.venv', 'bin', 'python'),
          ENGINE_DIR: join(ROOT, 'engine'),
          WEB_DIST_DIR: join(this.dataDir, 'no-web'),
          LOG_LEVEL: 'warn',
          ...this.env,
          ...(this.opts.memoryProbe ? this.probeEnv() : {}),
          DATA_DIR: this.dataDir,
          PORT: String(this.port),
          HOST: '127.0.0.1',
        },
        stdio: ['ignore', fd, fd],
      },
    );
    closeSync(fd);
    this.starts++;
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`the server exited at start-up:\n${this.tail()}`);
      if (this.command === 'worker') {
        if (readFileSync(this.log, 'utf8').slice(logFrom).includes('"msg":"worker started"')) return;
      } else {
        try {
          if ((await fetch(`${this.base}/api/plans`)).ok) return;
        } catch {}
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the server did not start:\n${this.tail()}`);
  }

  /** Stops the process with `signal` and waits for it to exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const proc = this.proc;
    if (!proc || !this.running) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill(signal);
    await exited;
  }

  /** CPU seconds of the process's finished children (its engine subprocesses), from /proc (Linux). */
  childCpuSeconds(): number {
    const fields = readFileSync(`/proc/${this.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // cutime and cstime are fields 16 and 17 of stat (13 and 14 after the command), in clock ticks (100/s).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  }

  private get probeFile(): string {
    return join(this.dataDir, 'memory-probe.json');
  }

  private probeEnv(): Record<string, string> {
    const probe = join(SERVER_DIR, 'test', 'support', 'memory-probe.cjs');
    return {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${probe}`.trim(),
      MEMORY_PROBE_FILE: this.probeFile,
    };
  }

  /** The process's memory right after two full garbage collections (needs `memoryProbe`). */
  async memoryAfterGc(): Promise<MemoryReading> {
    if (!this.opts.memoryProbe) throw new Error('started without memoryProbe');
    rmSync(this.probeFile, { force: true });
    process.kill(this.pid, 'SIGUSR2');
    for (let i = 0; i < 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      if (existsSync(this.probeFile))
        return JSON.parse(readFileSync(this.probeFile, 'utf8')) as MemoryReading;
    }
    throw new Error('no memory reading within 10 s');
  }

  /** Resident set size in kB, from /proc (Linux). */
  rssKb(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  }

  tail(lines = 40): string {
    try {
      return readFileSync(this.log, 'utf8').trim().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }

  /** A new account through the real endpoint; returns its session cookie. */
  async register(tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`): Promise<string> {
    const res = await fetch(`${this.base}/api/auth/register`, {
      method: 'POST',
      headers: jsonHeaders(),
      body: JSON.stringify({
        name: 'Fuzz User',
        email: `fuzz.${tag}@analytical-engines.com`,
        username: `fuzz_${tag}`,
        password: 'correct horse battery staple',
        acceptedTerms: true,
      }),
    });
    if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
    const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
    if (!cookie) throw new Error('no session cookie');
    return cookie;
  }
}

export const jsonHeaders = (cookie?: string): Record<string, string> => ({
  'content-type': 'application/json',
  'sec-fetch-site': 'same-origin',
  ...(cookie ? { cookie } : {}),
});

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => ok(port));
    });
  });
}
