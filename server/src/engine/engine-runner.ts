import type { ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { isAbsolute } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import {
  type EngineInstallation,
  killEngineGroup,
  spawnEngineProcess,
  spawnPrefix,
} from './engine-process.ts';
import type { EngineStandby } from './engine-standby.ts';

/** One line of the engine's stdout protocol (DESIGN.md §3). */
export type EngineEvent =
  | { event: 'progress'; percent: number; message?: string }
  | { event: 'log'; level?: string; message: string }
  | { event: 'done'; result?: Record<string, unknown>; message?: string }
  | { event: 'error'; code: string; message: string };

export type EngineStart = 'forked' | 'standby' | 'cold';

export type EngineOutcome =
  | { ok: true; result: Record<string, unknown>; message?: string; seconds: number }
  | { ok: false; code: string; message: string; seconds: number };

export interface EngineRunOptions {
  command: string;
  jobDir?: string;
  extraArgs?: string[];
  timeoutSeconds: number;
  memoryLimitMb: number;
  onProgress?: (percent: number, message: string | undefined) => void;
  /** How the engine process started: a standby spare (forked by the fork server or not), or spawned now. */
  onStart?: (start: EngineStart) => void;
  signal?: AbortSignal;
  /** Extra environment for the engine (e.g. FIELDLINE_ENGINE_PLUGIN, set only in tests). */
  env?: Record<string, string>;
  /**
   * MPI ranks (docs/distributed.md): above 1 the engine runs under its launcher, `python -m
   * fieldline_engine.mpirun -np N`, each rank with `memoryLimitMb` and `threadsPerRank` threads.
   */
  mpi?: { ranks: number; threadsPerRank: number; hostfile?: string | null };
}

export interface EngineLocation extends EngineInstallation {
  /** Warm engine processes a job takes instead of starting one (engine-standby.ts); not for MPI runs. */
  standby?: EngineStandby;
}

const STDERR_TAIL_BYTES = 8192;
// "Resource temporarily unavailable": a thread's stack could not be mapped (EAGAIN from pthread_create),
// which under RLIMIT_AS is the limit — NGSolve starting FIELDLINE_THREADS threads near it says only that.
const OUT_OF_MEMORY =
  /MemoryError|std::bad_alloc|Cannot allocate memory|failed to map segment|Memory allocation still failed|Could not allocate|out of memory|ran out of memory|Resource temporarily unavailable/i;

/**
 * Runs `python -m fieldline_engine <command> [--job dir]` in its own process group with a wall-time
 * limit (SIGKILL to the group) and a memory limit (the engine applies RLIMIT_AS to itself at start-up).
 * Whatever happens to the child, the caller gets an outcome; the server never throws on engine failure.
 */
export function runEngine(engine: EngineLocation, opts: EngineRunOptions): Promise<EngineOutcome> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const ranks = opts.mpi && opts.mpi.ranks > 1 ? opts.mpi : null;
  const launcher = ranks
    ? [
        '-m',
        'fieldline_engine.mpirun',
        '-np',
        String(ranks.ranks),
        ...(ranks.hostfile ? ['--hostfile', ranks.hostfile] : []),
      ]
    : ['-m', 'fieldline_engine'];
  const args = [...launcher, opts.command, ...(opts.jobDir ? ['--job', opts.jobDir] : [])];
  if (opts.extraArgs) args.push(...opts.extraArgs);

  return new Promise((resolvePromise) => {
    let settled = false;
    let last: EngineEvent | null = null;
    let stderrTail = '';
    let killedFor: 'timeout' | 'cancel' | null = null;

    const launch = startEngine(engine, opts, args, ranks);
    if ('error' in launch) {
      resolvePromise({ ok: false, code: 'engine_unavailable', message: launch.error, seconds: seconds() });
      return;
    }
    const { child, lines } = launch;
    opts.onStart?.(launch.start);
    const killGroup = () => killEngineGroup(child);
    const timer = setTimeout(() => {
      killedFor = 'timeout';
      killGroup();
    }, opts.timeoutSeconds * 1000);
    const onAbort = () => {
      killedFor = 'cancel';
      killGroup();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = (outcome: EngineOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolvePromise(outcome);
    };

    lines.on('line', (line) => {
      const event = parseEvent(line);
      if (!event) return;
      if (event.event === 'progress') opts.onProgress?.(clampPercent(event.percent), event.message);
      if (event.event === 'done' || event.event === 'error') last = event;
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    child.on('error', (err) => {
      finish({
        ok: false,
        code: 'engine_unavailable',
        message: `Engine could not start: ${err.message}`,
        seconds: seconds(),
      });
    });
    child.on('close', (exitCode, signal) => {
      const s = seconds();
      if (killedFor === 'timeout') {
        return finish({
          ok: false,
          code: 'time_limit',
          message: `The job exceeded its wall-time limit of ${opts.timeoutSeconds} s. Use a coarser mesh or lower element order, or ask the operator to raise the limit (JOB_TIMEOUT_SECONDS).`,
          seconds: s,
        });
      }
      if (killedFor === 'cancel')
        return finish({ ok: false, code: 'cancelled', message: 'Job cancelled', seconds: s });
      const final = last as EngineEvent | null;
      if (final?.event === 'done')
        return finish({ ok: true, result: final.result ?? {}, message: final.message, seconds: s });
      // Under RLIMIT_AS an allocation fails wherever it happens: Python, NGSolve, OpenBLAS or the loader.
      const internal =
        final?.event === 'error' && (final.code === 'engine_error' || final.code === 'memory_limit');
      if (
        (!final || internal) &&
        OUT_OF_MEMORY.test(`${stderrTail}\n${final?.event === 'error' ? final.message : ''}`)
      ) {
        return finish({
          ok: false,
          code: 'memory_limit',
          message: `The job exceeded its memory limit of ${opts.memoryLimitMb} MB. Use a coarser mesh or lower element order, or ask the operator to raise the limit (JOB_MEMORY_LIMIT_MB).`,
          seconds: s,
        });
      }
      if (final?.event === 'error')
        return finish({ ok: false, code: final.code, message: final.message, seconds: s });
      const how = signal ? `signal ${signal}` : `exit code ${exitCode}`;
      return finish({
        ok: false,
        code: 'engine_crashed',
        message: `The solver process ended unexpectedly (${how}).${stderrTail ? ` Last output: ${lastLine(stderrTail)}` : ''}`,
        seconds: s,
      });
    });
  });
}

/**
 * A standby process when one is ready (not for MPI runs, whose launcher starts the ranks), else a fresh
 * one. Either way the child leads its own process group and prints the protocol on stdout.
 */
function startEngine(
  engine: EngineLocation,
  opts: EngineRunOptions,
  args: string[],
  ranks: EngineRunOptions['mpi'] | null,
): { child: ChildProcess; lines: Interface; start: EngineStart } | { error: string } {
  const taken =
    ranks || opts.extraArgs?.length
      ? null
      : engine.standby?.take({
          command: opts.command,
          jobDir: opts.jobDir,
          memoryLimitMb: opts.memoryLimitMb,
          env: opts.env,
        });
  if (taken) return { child: taken.child, lines: taken.lines, start: taken.forked ? 'forked' : 'standby' };
  // Ranks on other machines (a hostfile) talk over the network; on one machine they need none.
  const allowNetwork = Boolean(ranks?.hostfile);
  if (spawnPrefix(engine, { allowNetwork }).length > 0 && isAbsolute(engine.python)) {
    // Behind `unshare` a missing interpreter is an exit code, not a spawn error: check it first.
    try {
      accessSync(engine.python, constants.X_OK);
    } catch (err) {
      return { error: `Engine could not start: ${(err as Error).message}` };
    }
  }
  const child = spawnEngineProcess(engine, {
    args,
    memoryLimitMb: opts.memoryLimitMb,
    threads: ranks ? String(ranks.threadsPerRank) : undefined,
    allowNetwork,
    stdin: 'ignore',
    env: opts.env,
  });
  return { child, lines: createInterface({ input: child.stdout as NodeJS.ReadableStream }), start: 'cold' };
}

function parseEvent(line: string): EngineEvent | null {
  if (!line.startsWith('{')) return null;
  try {
    const value = JSON.parse(line) as { event?: unknown };
    return typeof value.event === 'string' ? (value as EngineEvent) : null;
  } catch {
    return null;
  }
}

function clampPercent(p: number): number {
  return Number.isFinite(p) ? Math.min(100, Math.max(0, p)) : 0;
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}
