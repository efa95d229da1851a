import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { EngineForkServer } from './engine-fork-server.ts';
import {
  type EngineInstallation,
  type EngineSpawn,
  killEngineGroup,
  spawnEngineProcess,
  spawnPrefix,
} from './engine-process.ts';
import { STANDBY_ARGS, spareLauncherOf } from './spare-launcher.ts';

/** What a standby process is told when a job takes it (engine/fieldline_engine/standby.py). */
export interface StandbyRequest {
  command: string;
  jobDir?: string;
  memoryLimitMb: number;
  env?: Record<string, string>;
}

/** A warmed-up engine process now running one job: supervised by the caller like a fresh one. */
export interface TakenEngine {
  child: ChildProcess;
  lines: Interface;
  /** Forked by the fork server rather than warmed up by itself. */
  forked: boolean;
}

interface Spare {
  child: ChildProcess;
  lines: Interface;
  ready: boolean;
  /** A launcher whose process the fork server forks (ready within milliseconds). */
  forked: boolean;
  stderrTail: string;
  detach: () => void;
}

export interface StandbyLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** After a spare died before it was ready (a broken installation), jobs start cold for this long. */
const RETRY_AFTER_FAILURE_MS = 60_000;
const RETRY_AFTER_LOSS_MS = 1_000;

/**
 * Engine processes started before their jobs (ENGINE_STANDBY, docs/compute.md): each imports the
 * libraries and warms them up on a generic cube, then waits for one job on stdin, so a job does not wait
 * ≈ 0.3–0.5 s for Python and NGSolve to load nor pay their first-use costs. Each is spawned exactly as a
 * job's engine is (own process group, network namespace, the server's pid to watch) and serves one job,
 * then exits; a new one is started in its place. When none is ready a job starts cold, as before.
 */
export class EngineStandby {
  private readonly spares = new Set<Spare>();
  private started = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;
  /** Jobs that started on a standby process (tests, logs). */
  taken = 0;
  /** Of those, jobs that started on a spare forked by the fork server. */
  takenForked = 0;
  private saidPythonLauncher = false;

  constructor(
    private readonly engine: EngineInstallation,
    private readonly size: number,
    private readonly log?: StandbyLog,
    /** ENGINE_FORK_SERVER: spares are forked from one warmed-up process (engine-fork-server.ts). */
    readonly forkServer?: EngineForkServer,
  ) {
    forkServer?.onChange(() => this.refill());
  }

  /** Starts the spares: call when this process begins running jobs. */
  start(): void {
    if (this.closed || this.size <= 0) return;
    this.started = true;
    this.forkServer?.start();
    this.refill();
  }

  /**
   * Hands a ready spare its job, or returns null (the caller starts the engine cold). A forked spare
   * still starting is as good: it reads the job line once its fork (milliseconds) is done.
   */
  take(request: StandbyRequest): TakenEngine | null {
    const alive = (s: Spare) => s.child.exitCode === null && s.child.signalCode === null;
    const spares = [...this.spares];
    const spare = spares.find((s) => s.ready && alive(s)) ?? spares.find((s) => s.forked && alive(s));
    if (!spare) return null;
    this.spares.delete(spare);
    spare.detach();
    const line = JSON.stringify({
      command: request.command,
      job: request.jobDir ?? null,
      memoryLimitMb: request.memoryLimitMb,
      env: request.env ?? {},
    });
    spare.child.stdin?.end(`${line}\n`);
    this.taken += 1;
    if (spare.forked) this.takenForked += 1;
    setImmediate(() => this.refill());
    return { child: spare.child, lines: spare.lines, forked: spare.forked };
  }

  /** Ready spares now (tests wait for one). */
  readyCount(): number {
    return [...this.spares].filter((s) => s.ready).length;
  }

  /** Process ids of the spares (tests, logs). */
  processIds(): number[] {
    return [...this.spares].flatMap((s) => (s.child.pid === undefined ? [] : [s.child.pid]));
  }

  /** Kills the spares and starts no more; waits for them to exit. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const exits = [...this.spares].map(
      (s) =>
        new Promise<void>((resolve) => {
          if (s.child.exitCode !== null || s.child.signalCode !== null) return resolve();
          s.child.once('close', () => resolve());
          killEngineGroup(s.child);
        }),
    );
    this.spares.clear();
    await Promise.all(exits);
    await this.forkServer?.close();
  }

  private refill(): void {
    if (!this.started || this.closed || this.retryTimer) return;
    // Its first warm-up is under way: full standby processes now would only compete with it for the CPU.
    if (this.forkServer?.state === 'starting' && this.forkServer.starts === 1) return;
    while (this.spares.size < this.size) this.spares.add(this.spawnSpare());
  }

  private retryLater(ms: number): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.refill();
    }, ms);
    this.retryTimer.unref();
  }

  private spawnSpare(): Spare {
    const forked = this.forkServer?.state === 'ready';
    const child = spawnEngineProcess(
      this.engine,
      forked ? this.launcherSpawn() : { args: STANDBY_ARGS, stdin: 'pipe' },
    );
    const spare: Spare = {
      child,
      lines: createInterface({ input: child.stdout as NodeJS.ReadableStream }),
      ready: false,
      forked,
      stderrTail: '',
      detach: () => {},
    };
    const onLine = (line: string) => {
      if (parseReady(line)) spare.ready = true;
    };
    const onStderr = (chunk: Buffer) => {
      spare.stderrTail = (spare.stderrTail + chunk.toString('utf8')).slice(-2048);
    };
    let gone = false;
    const onGone = (how: string) => {
      if (gone) return;
      gone = true;
      if (!this.spares.delete(spare) || this.closed) return;
      this.log?.warn(
        { how, ready: spare.ready, stderr: spare.stderrTail.trim().split('\n').slice(-3).join(' | ') },
        'standby engine process ended before a job took it; jobs start cold meanwhile',
      );
      this.retryLater(spare.ready || spare.forked ? RETRY_AFTER_LOSS_MS : RETRY_AFTER_FAILURE_MS);
    };
    const onError = (err: Error) => onGone(err.message);
    const onClose = (code: number | null, signal: string | null) =>
      onGone(signal ? `signal ${signal}` : `exit code ${code}`);
    // A job written to a spare that has just died must not crash the server (EPIPE).
    child.stdin?.on('error', () => {});
    spare.lines.on('line', onLine);
    child.stderr?.on('data', onStderr);
    child.on('error', onError);
    child.on('close', onClose);
    spare.detach = () => {
      spare.lines.off('line', onLine);
      child.stderr?.off('data', onStderr);
      child.off('error', onError);
      child.off('close', onClose);
    };
    return spare;
  }

  /**
   * A forked spare's launcher: the compiled one (≈ 1 ms of CPU; engine/launcher/spare_launcher.c), else the
   * Python one (≈ 20–30 ms; spare_launcher.py). Either passes its pipes to the fork server and ends as the
   * forked child ends, and becomes a full standby process by itself if the fork server has gone meanwhile.
   */
  private launcherSpawn(): EngineSpawn {
    const socket = this.forkServer?.socketPath ?? '';
    const native = spareLauncherOf(this.engine);
    if (native) {
      // Its fallback, a full standby process, runs engine code: in the network namespace like any engine.
      const standby = [...spawnPrefix(this.engine, {}), this.engine.python, ...STANDBY_ARGS];
      return { program: native, args: [socket, '--', ...standby], stdin: 'pipe' };
    }
    if (this.engine.spareLauncher !== 'python' && !this.saidPythonLauncher) {
      this.saidPythonLauncher = true;
      this.log?.warn(
        { engineDir: this.engine.engineDir },
        'the compiled spare launcher is not built (no C compiler at install?): forked spares start through the Python launcher, ≈ 20–30 ms of CPU per job instead of ≈ 1 ms (node scripts/build-launcher.mjs builds it)',
      );
    }
    const script = join(this.engine.engineDir, 'fieldline_engine', 'spare_launcher.py');
    return { args: ['-S', '-I', script, socket], stdin: 'pipe' };
  }
}

function parseReady(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    return (JSON.parse(line) as { event?: unknown }).event === 'ready';
  } catch {
    return false;
  }
}
