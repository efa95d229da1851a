import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process.ts';

/**
 * A PostgreSQL server of the test's own (like scripts/with-postgres.sh, but one the test may stop and
 * restart under load without disturbing the shared one the other test files use). Null when PostgreSQL is
 * not installed.
 */
export class PrivatePostgres {
  readonly dir = mkdtempSync(join(tmpdir(), 'fieldline-pgfault-'));
  private readonly asPg: string[] = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];

  private constructor(
    private readonly bin: string,
    readonly port: number,
  ) {}

  static async create(): Promise<PrivatePostgres | null> {
    const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [];
    const v = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
    if (!v) return null;
    const pg = new PrivatePostgres(`/usr/lib/postgresql/${v}/bin`, await freePort());
    if (pg.asPg.length) chownSync(pg.dir, uidOf('postgres'), gidOf('postgres'));
    pg.run('initdb', ['-D', pg.data, '-U', 'fieldline', '--auth=trust', '-E', 'UTF8']);
    pg.start();
    return pg;
  }

  get data(): string {
    return join(this.dir, 'data');
  }

  get url(): string {
    return `postgres://fieldline@127.0.0.1:${this.port}/postgres`;
  }

  private run(tool: string, args: string[]): void {
    const [cmd, ...pre] = [...this.asPg, join(this.bin, tool)];
    execFileSync(cmd as string, [...pre, ...args], { stdio: 'ignore' });
  }

  start(): void {
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    this.run('pg_ctl', ['-D', this.data, '-l', join(this.dir, 'log'), '-w', '-o', opts, 'start']);
  }

  /** `immediate`: the server dies as in a crash (connections cut, no checkpoint); `fast` is a clean stop. */
  stop(mode: 'immediate' | 'fast' = 'immediate'): void {
    this.run('pg_ctl', ['-D', this.data, '-m', mode, '-w', 'stop']);
  }

  log(): string {
    return readFileSync(join(this.dir, 'log'), 'utf8');
  }

  destroy(): void {
    try {
      this.stop();
    } catch {}
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A Redis server of the test's own, without persistence (a restart loses every queue: the worst case). */
export class PrivateRedis {
  readonly dir = mkdtempSync(join(tmpdir(), 'fieldline-redisfault-'));

  private constructor(readonly port: number) {}

  static async create(): Promise<PrivateRedis | null> {
    if (spawnSync('redis-server', ['--version']).status !== 0) return null;
    const r = new PrivateRedis(await freePort());
    await r.start();
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    execFileSync('redis-server', [
      ...['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir],
      ...['--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
      ...['--daemonize', 'yes', '--pidfile', join(this.dir, 'redis.pid'), '--logfile', join(this.dir, 'log')],
    ]);
    for (let i = 0; i < 100; i++) {
      if (
        spawnSync('redis-cli', ['-p', String(this.port), 'ping'])
          .stdout?.toString()
          .includes('PONG')
      )
        return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('redis did not start');
  }

  /** SIGKILL: Redis goes away mid-command, as in a crash. */
  async kill(): Promise<void> {
    const pidFile = join(this.dir, 'redis.pid');
    if (!existsSync(pidFile)) return;
    const pid = Number(readFileSync(pidFile, 'utf8'));
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
    rmSync(pidFile, { force: true });
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async destroy(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user]).toString().trim());
}

function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user]).toString().trim());
}
