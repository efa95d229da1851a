import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type EngineInstallation, killEngineGroup, spawnEngineProcess } from './engine-process.ts';
import type { StandbyLog } from './engine-standby.ts';
import { makeForkDirectory } from './fork-dir.ts';

export type ForkServerState = 'starting' | 'ready' | 'down';

const FIRST_RESTART_MS = 1_000;
const MAX_RESTART_MS = 60_000;
/** Up this long: the next loss restarts it after the first back-off again. */
const STABLE_AFTER_MS = 60_000;

/**
 * The engine's fork server (ENGINE_FORK_SERVER, docs/compute.md; engine/fieldline_engine/forkserver.py):
 * one engine process per server or worker that imports and warms up once, then forks a warmed-up spare
 * for each launcher that connects to its Unix socket. It is spawned like any engine process (its own
 * process group, the network namespace, the server's pid to watch); the socket lives in a private 0700
 * directory (a filesystem socket: an abstract one would not be reachable from another network
 * namespace). When it dies it is restarted with a back-off (1 s doubling to 60 s), and meanwhile
 * spares are full standby processes (a spare's launcher falls back by itself too: spare-launcher.ts).
 */
export class EngineForkServer {
  state: ForkServerState = 'down';
  /** Times it was (re)started (tests, logs). */
  starts = 0;
  private child: ChildProcess | null = null;
  private dir = '';
  private socketIndex = 0;
  private currentSocket = '';
  private restartMs = FIRST_RESTART_MS;
  private restartTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly engine: EngineInstallation,
    private readonly log?: StandbyLog,
  ) {}

  /** The socket a launcher connects to (valid while `state` is 'ready'). */
  get socketPath(): string {
    return this.currentSocket;
  }

  /** Process id of the fork server now (tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Called whenever the state changes (the standby pool refills). */
  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  start(): void {
    if (this.closed || this.child || this.restartTimer) return;
    this.dir ||= makeForkDirectory(); // mode 0700: only this user connects
    this.spawn();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    // Removed before waiting for the fork server's end: a caller that exits without awaiting close()
    // leaves no directory behind (the killed fork server never touches it again).
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    if (child && child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('close', () => resolve());
        killEngineGroup(child);
      });
    }
    this.child = null;
    this.state = 'down';
  }

  private setState(state: ForkServerState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  private spawn(): void {
    this.starts += 1;
    // A new name per start: a stale socket of a dead fork server is never connected to by mistake.
    this.socketIndex += 1;
    const socket = join(this.dir, `s${this.socketIndex}`);
    const child = spawnEngineProcess(this.engine, {
      args: ['-m', 'fieldline_engine', 'forkserver', '--socket', socket],
      stdin: 'ignore',
    });
    this.child = child;
    this.setState('starting');
    const startedAt = performance.now();
    let stderrTail = '';
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (this.child !== child || this.state !== 'starting' || !isReady(line)) return;
      this.currentSocket = socket;
      this.log?.info(
        { pid: child.pid, seconds: (performance.now() - startedAt) / 1000 },
        'engine fork server ready',
      );
      this.setState('ready');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-2048);
    });
    let gone = false;
    const onGone = (how: string) => {
      if (gone) return;
      gone = true;
      rmSync(socket, { force: true });
      if (this.child !== child) return;
      this.child = null;
      this.currentSocket = '';
      this.setState('down');
      if (this.closed) return;
      if (performance.now() - startedAt > STABLE_AFTER_MS) this.restartMs = FIRST_RESTART_MS;
      this.log?.warn(
        {
          how,
          restartInMs: this.restartMs,
          stderr: stderrTail.trim().split('\n').slice(-3).join(' | '),
        },
        'engine fork server ended; spares start as full standby processes until it is back',
      );
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        if (!this.closed) this.spawn();
      }, this.restartMs);
      this.restartTimer.unref();
      this.restartMs = Math.min(MAX_RESTART_MS, this.restartMs * 2);
    };
    child.on('error', (err) => onGone(err.message));
    child.on('close', (code, signal) => onGone(signal ? `signal ${signal}` : `exit code ${code}`));
  }
}

function isReady(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    return (JSON.parse(line) as { event?: unknown }).event === 'ready';
  } catch {
    return false;
  }
}
