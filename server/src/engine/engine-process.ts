import { type ChildProcess, spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { networkIsolationPrefix } from './network-isolation.ts';

export interface EngineInstallation {
  python: string;
  engineDir: string;
  /** Start the engine without network access where the system allows it (network-isolation.ts). */
  isolateNetwork?: boolean;
  /**
   * How forked spares start: 'native' (default) through the compiled launcher when it is built
   * (spare-launcher.ts), else and with 'python' through spare_launcher.py (ENGINE_SPARE_LAUNCHER).
   */
  spareLauncher?: 'native' | 'python';
}

export interface EngineSpawn {
  /** Arguments after the interpreter: `-m fieldline_engine …` or the MPI launcher's. */
  args: string[];
  /**
   * A program to run instead of the interpreter, outside the network namespace: the compiled spare
   * launcher, which runs no engine code (its forked child lives in the fork server's namespace, and the
   * standby command it falls back to carries the namespace prefix itself).
   */
  program?: string;
  /** Applied at start-up (FIELDLINE_MEMORY_LIMIT_MB); a standby process gets its job's later. */
  memoryLimitMb?: number;
  threads?: string;
  /** Ranks on other machines talk over the network: no isolation for them. */
  allowNetwork?: boolean;
  /** 'pipe' for a standby process, which reads its job from stdin. */
  stdin: 'ignore' | 'pipe';
  env?: Record<string, string>;
}

/** The command prefix for a spawn: `unshare …` when the engine is isolated from the network. */
export function spawnPrefix(engine: EngineInstallation, spec: Pick<EngineSpawn, 'allowNetwork'>): string[] {
  return engine.isolateNetwork && !spec.allowNetwork ? networkIsolationPrefix() : [];
}

/**
 * Starts an engine process the one way every job's engine starts: in its own process group (the
 * caller kills the group on timeout or cancel), with a fixed environment and the server's pid to watch.
 */
export function spawnEngineProcess(engine: EngineInstallation, spec: EngineSpawn): ChildProcess {
  const [program, ...programArgs] = (
    spec.program ? [spec.program, ...spec.args] : [...spawnPrefix(engine, spec), engine.python, ...spec.args]
  ) as [string, ...string[]];
  return spawn(program, programArgs, {
    cwd: engine.engineDir,
    detached: true,
    stdio: [spec.stdin, 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      LANG: 'C.UTF-8',
      PYTHONUNBUFFERED: '1',
      PYTHONPATH: engine.engineDir,
      ...(spec.memoryLimitMb !== undefined ? { FIELDLINE_MEMORY_LIMIT_MB: String(spec.memoryLimitMb) } : {}),
      OMP_NUM_THREADS: process.env.OMP_NUM_THREADS ?? '1',
      OPENBLAS_NUM_THREADS: process.env.OPENBLAS_NUM_THREADS ?? '1',
      // Ranks never take every core each: they share the machine's cores (docs/distributed.md).
      FIELDLINE_THREADS: spec.threads ?? process.env.FIELDLINE_THREADS ?? '',
      // '0': an iterative full-wave frequency's ports in one process, not forked ones (docs/fullwave.md).
      FIELDLINE_PORT_PROCESSES: process.env.FIELDLINE_PORT_PROCESSES ?? '',
      // The engine exits by itself if this process dies (SIGKILL leaves no chance to kill the group);
      // under mpiexec the ranks on this host watch the pid instead of their parent.
      FIELDLINE_PARENT_PID: String(process.pid),
      FIELDLINE_PARENT_HOST: hostname(),
      ...spec.env,
    },
  });
}

/** SIGKILL to the process group of a child started by spawnEngineProcess. */
export function killEngineGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
