import type { ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { EngineForkServer } from '../src/engine/engine-fork-server.ts';
import { type EngineInstallation, spawnEngineProcess, spawnPrefix } from '../src/engine/engine-process.ts';
import { runEngine } from '../src/engine/engine-runner.ts';
import { EngineStandby } from '../src/engine/engine-standby.ts';
import { networkIsolationPrefix } from '../src/engine/network-isolation.ts';
import { nativeSpareLauncher, STANDBY_ARGS, spareLauncherOf } from '../src/engine/spare-launcher.ts';
import { pollUntil, tinyJob } from './support/compute.ts';

// The compiled spare launcher (engine/launcher/spare_launcher.c, built by `npm test`'s install step) as the
// server runs it: each forked spare is this process, the job's exit code and signal come through it, a kill
// of its group ends the forked job, and without the binary the server falls back to the Python launcher.
const config = loadConfig({ ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'fieldline-launcher-')) });
const installation: EngineInstallation = {
  python: config.enginePython,
  engineDir: config.engineDir,
  isolateNetwork: true,
};
const workDir = mkdtempSync(join(tmpdir(), 'fieldline-launcher-jobs-'));
const HOOKS = { FIELDLINE_ENGINE_PLUGIN: 'fieldline_engine.testing.hooks' };
const native = nativeSpareLauncher(config.engineDir);

const tempDirs = [config.dataDir, workDir];
let pools: EngineStandby[] = [];
afterEach(async () => {
  await Promise.all(pools.map((p) => p.close()));
  pools = [];
});
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function pool(engine: EngineInstallation, size: number, log?: { warn: string[] }) {
  const logger = { info: () => {}, warn: (_obj: object, msg: string) => log?.warn.push(msg) };
  const forkServer = new EngineForkServer(engine, logger);
  const standby = new EngineStandby(engine, size, logger, forkServer);
  pools.push(standby);
  standby.start();
  return { standby, forkServer };
}

function jobDir(name: string, job: object = tinyJob()): string {
  const dir = join(workDir, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
  return dir;
}

function ended(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return resolve({ code: child.exitCode, signal: child.signalCode });
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
}

/** Running and not a zombie: a forked child the fork server has not reaped would still show as Z. */
function running(pid: number): boolean {
  try {
    return (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}

function forkedChildren(forkServerPid: number): number[] {
  return readFileSync(`/proc/${forkServerPid}/task/${forkServerPid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
}

function sleepyRequest(name: string) {
  return {
    command: 'solve',
    jobDir: jobDir(name, { test_hooks: { sleep_seconds: 60 } }),
    memoryLimitMb: 2048,
    env: HOOKS,
  };
}

async function firstProgress(child: ChildProcess): Promise<void> {
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  await new Promise<void>((resolve) => lines.on('line', (l) => l.includes('"progress"') && resolve()));
}

describe.skipIf(native === null)('the compiled spare launcher', () => {
  it('is what each forked spare runs, and passes the job’s exit code and signal through', async () => {
    const { standby, forkServer } = pool(installation, 1);
    await pollUntil(async () => standby.readyCount() === 1 && forkServer.state === 'ready', 60_000);
    const [launcherPid] = standby.processIds();
    expect(readlinkSync(`/proc/${launcherPid}/exe`)).toBe(realpathSync(native as string));

    // An exit code: a request the standby protocol refuses ends its process with 2.
    const usage = standby.take({ command: 'rm', memoryLimitMb: 2048 });
    expect(usage?.forked).toBe(true);
    expect(await ended(usage?.child as ChildProcess)).toEqual({ code: 2, signal: null });

    // A signal: the forked job killed by SIGTERM is reported as the launcher killed by SIGTERM.
    await pollUntil(async () => standby.readyCount() === 1, 10_000);
    const term = standby.take(sleepyRequest('term'));
    const child = term?.child as ChildProcess;
    await firstProgress(child);
    const [job] = forkedChildren(forkServer.pid as number).filter(running);
    process.kill(job as number, 'SIGTERM');
    expect(await ended(child)).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('a kill of its process group mid-run ends the forked job, reaped, and is reported as SIGKILL', async () => {
    const { standby, forkServer } = pool(installation, 1);
    await pollUntil(async () => standby.readyCount() === 1 && forkServer.state === 'ready', 60_000);
    const taken = standby.take(sleepyRequest('kill'));
    const child = taken?.child as ChildProcess;
    await firstProgress(child);
    const [job] = forkedChildren(forkServer.pid as number).filter(running);
    // The forked engine lives in the fork server's network namespace, not the server's.
    if (networkIsolationPrefix().length > 0) {
      expect(readlinkSync(`/proc/${job}/ns/net`)).toBe(readlinkSync(`/proc/${forkServer.pid}/ns/net`));
      expect(readlinkSync(`/proc/${job}/ns/net`)).not.toBe(readlinkSync('/proc/self/ns/net'));
    }
    const killedAt = performance.now();
    process.kill(-(child.pid as number), 'SIGKILL'); // what the runner does on timeout or cancel
    expect(await ended(child)).toEqual({ code: null, signal: 'SIGKILL' });
    // Reaped by the fork server: no longer its child, not even a zombie.
    await pollUntil(async () => !forkedChildren(forkServer.pid as number).includes(job as number), 5_000, 10);
    console.log(`forked job gone and reaped ${(performance.now() - killedAt).toFixed(0)} ms after the kill`);
    expect(running(job as number)).toBe(false);
  });

  it('without a fork server it becomes a full standby process, in the network namespace', async () => {
    const standbyCommand = [...spawnPrefix(installation, {}), installation.python, ...STANDBY_ARGS];
    const child = spawnEngineProcess(installation, {
      program: native as string,
      args: [join(workDir, 'no-such-socket'), '--', ...standbyCommand],
      stdin: 'pipe',
    });
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const events: { event: string }[] = [];
    const ready = new Promise<void>((resolve) =>
      lines.on('line', (line) => {
        if (line.startsWith('{')) events.push(JSON.parse(line));
        if (line.includes('"ready"')) resolve();
      }),
    );
    await ready;
    if (networkIsolationPrefix().length > 0)
      expect(readlinkSync(`/proc/${child.pid}/ns/net`)).not.toBe(readlinkSync('/proc/self/ns/net'));
    child.stdin?.end(`${JSON.stringify({ command: 'rm', job: null })}\n`);
    expect(await ended(child)).toEqual({ code: 2, signal: null });
    expect(events.at(-1)).toMatchObject({ event: 'error', code: 'usage' });
  });
});

describe('without the compiled launcher', () => {
  it('forked spares start through the Python launcher, said once, and run jobs', async () => {
    // An engine directory whose launcher was never built (no C compiler at install).
    const engineDir = mkdtempSync(join(tmpdir(), 'fieldline-engine-unbuilt-'));
    tempDirs.push(engineDir);
    symlinkSync(join(config.engineDir, 'fieldline_engine'), join(engineDir, 'fieldline_engine'));
    mkdirSync(join(engineDir, 'launcher'));
    copyFileSync(
      join(config.engineDir, 'launcher', 'spare_launcher.c'),
      join(engineDir, 'launcher', 'spare_launcher.c'),
    );
    const unbuilt = { ...installation, engineDir };
    expect(spareLauncherOf(unbuilt)).toBeNull();
    const log = { warn: [] as string[] };
    const { standby, forkServer } = pool(unbuilt, 2, log);
    await pollUntil(async () => standby.readyCount() === 2 && forkServer.state === 'ready', 60_000);
    for (const pid of standby.processIds())
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain(
        join(engineDir, 'fieldline_engine', 'spare_launcher.py'),
      );
    expect(log.warn.filter((m) => m.includes('compiled spare launcher is not built'))).toHaveLength(1);
    const outcome = await runEngine(
      { ...unbuilt, standby },
      { command: 'solve', jobDir: jobDir('python-launcher'), timeoutSeconds: 120, memoryLimitMb: 2048 },
    );
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    expect(standby.takenForked).toBe(1);
  });

  it('ENGINE_SPARE_LAUNCHER=python chooses the Python launcher even when the compiled one is built', () => {
    const chosen = loadConfig({ ...process.env, ENGINE_SPARE_LAUNCHER: 'python' }).engineSpareLauncher;
    expect(chosen).toBe('python');
    expect(spareLauncherOf({ ...installation, spareLauncher: chosen })).toBeNull();
    expect(spareLauncherOf(installation)).toBe(native);
  });
});
