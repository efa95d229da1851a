import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { EngineForkServer } from '../src/engine/engine-fork-server.ts';
import { runEngine } from '../src/engine/engine-runner.ts';
import { EngineStandby } from '../src/engine/engine-standby.ts';
import { engineProcesses } from './robustness/fault-ledger.ts';
import { pollUntil, tinyJob } from './support/compute.ts';

// The real engine, as the server starts it (ENGINE_PYTHON, ENGINE_DIR defaults), in its network namespace.
const config = loadConfig({ ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'fieldline-forksrv-')) });
const installation = { python: config.enginePython, engineDir: config.engineDir, isolateNetwork: true };
const workDir = mkdtempSync(join(tmpdir(), 'fieldline-forksrv-jobs-'));
const HOOKS = { FIELDLINE_ENGINE_PLUGIN: 'fieldline_engine.testing.hooks' };

let pools: EngineStandby[] = [];
afterEach(async () => {
  await Promise.all(pools.map((p) => p.close()));
  pools = [];
});

function pool(size = 1): { standby: EngineStandby; forkServer: EngineForkServer } {
  const forkServer = new EngineForkServer(installation);
  const standby = new EngineStandby(installation, size, undefined, forkServer);
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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** CPU seconds (user + system) a live process has used, from /proc/PID/stat. */
function cpuSeconds(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function forkedChildren(forkServerPid: number): number[] {
  return readFileSync(`/proc/${forkServerPid}/task/${forkServerPid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
}

const solve = (dir: string, extra: Partial<Parameters<typeof runEngine>[1]> = {}) => ({
  command: 'solve',
  jobDir: dir,
  timeoutSeconds: 120,
  memoryLimitMb: 2048,
  ...extra,
});

describe('the engine fork server (ENGINE_FORK_SERVER)', () => {
  it('forks ready spares that cost milliseconds of CPU and run jobs with the result of a cold start', async () => {
    const { standby, forkServer } = pool(2);
    await pollUntil(async () => standby.readyCount() === 2, 60_000);
    const serverPid = forkServer.pid as number;
    const serverCpu = cpuSeconds(serverPid);
    // Each spare is a launcher (the compiled engine/launcher, or python -S -I with the standard library only
    // where none is built) and a child forked from the warmed-up fork server: neither imports anything heavy.
    const launchers = standby.processIds();
    const spareCpu = launchers.map(cpuSeconds);
    const childCpu = forkedChildren(serverPid).map(cpuSeconds);
    console.log(
      `fork server to ready: ${serverCpu.toFixed(2)} CPU-s; per spare to ready: launcher ${spareCpu.map((s) => (s * 1000).toFixed(0)).join(', ')} ms, forked child ${childCpu.map((s) => (s * 1000).toFixed(0)).join(', ')} ms`,
    );
    expect(childCpu).toHaveLength(2);
    for (const [i, launcher] of spareCpu.entries()) expect(launcher + (childCpu[i] ?? 0)).toBeLessThan(0.15);

    const starts: string[] = [];
    const onStart = (how: string) => starts.push(how);
    const forked = await runEngine({ ...installation, standby }, solve(jobDir('forked'), { onStart }));
    const cold = await runEngine(installation, solve(jobDir('cold'), { onStart }));
    expect(starts).toEqual(['forked', 'cold']);
    console.log(
      `tiny job: cold start ${cold.seconds.toFixed(3)} s, on a forked spare ${forked.seconds.toFixed(3)} s`,
    );
    expect(forked.ok && cold.ok, JSON.stringify({ forked, cold })).toBe(true);
    expect(standby.takenForked).toBe(1);
    const quantities = (dir: string) =>
      (JSON.parse(readFileSync(join(workDir, dir, 'results.json'), 'utf8')) as { quantities: object })
        .quantities;
    expect(Object.keys(quantities('forked')).length).toBeGreaterThan(0);
    expect(quantities('forked')).toEqual(quantities('cold'));
    await pollUntil(async () => standby.readyCount() === 2, 10_000); // refilled in milliseconds
    expect(forkServer.starts).toBe(1);
  });

  it('a cancelled or timed-out job on a forked spare leaves no process behind', async () => {
    const { standby } = pool(1);
    await pollUntil(async () => standby.readyCount() === 1, 60_000);
    const dir = jobDir('cancel', { ...tinyJob(), test_hooks: { sleep_seconds: 60 } });
    const stop = new AbortController();
    let sawProgress = false;
    const running = runEngine(
      { ...installation, standby },
      solve(dir, { env: HOOKS, signal: stop.signal, onProgress: () => (sawProgress = true) }),
    );
    await pollUntil(async () => sawProgress, 30_000);
    const [engine] = engineProcesses(dir); // the forked child, retitled to the job's cold command line
    expect(engine?.jobDir).toBe(dir);
    const stoppedAt = performance.now();
    stop.abort(); // the server kills the launcher's process group; the fork server kills the child's
    expect(await running).toMatchObject({ ok: false, code: 'cancelled' });
    expect(standby.takenForked).toBe(1);
    await pollUntil(async () => !alive(engine?.pid as number), 5_000, 10);
    const goneMs = performance.now() - stoppedAt;
    console.log(`cancelled job's forked process gone ${goneMs.toFixed(0)} ms after the kill`);
    expect(goneMs).toBeLessThan(1000);

    await pollUntil(async () => standby.readyCount() === 1, 10_000);
    const slow = jobDir('timeout', { ...tinyJob(), test_hooks: { sleep_seconds: 60 } });
    const outcome = await runEngine(
      { ...installation, standby },
      solve(slow, { env: HOOKS, timeoutSeconds: 2 }),
    );
    expect(outcome).toMatchObject({ ok: false, code: 'time_limit' });
    await pollUntil(async () => engineProcesses(slow).length === 0, 1_000, 10);
  });

  it('applies the job memory limit to a forked spare', async () => {
    const { standby } = pool(1);
    await pollUntil(async () => standby.readyCount() === 1, 60_000);
    const dir = jobDir('memory', { ...tinyJob(), test_hooks: { allocate_mb: 3000 } });
    const outcome = await runEngine(
      { ...installation, standby },
      solve(dir, { env: HOOKS, memoryLimitMb: 1536 }),
    );
    expect(standby.takenForked).toBe(1);
    expect(outcome).toMatchObject({ ok: false, code: 'memory_limit' });
    expect(outcome.ok ? '' : outcome.message).toContain('memory limit of 1536 MB');
  });

  it('when the fork server dies, jobs under way finish, new jobs still run and it is restarted', async () => {
    const { standby, forkServer } = pool(2);
    await pollUntil(async () => standby.readyCount() === 2 && forkServer.state === 'ready', 60_000);
    let sawProgress = false;
    const underWay = runEngine(
      { ...installation, standby },
      solve(jobDir('under-way', { ...tinyJob(), test_hooks: { sleep_seconds: 1.5 } }), {
        env: HOOKS,
        onProgress: () => (sawProgress = true),
      }),
    );
    await pollUntil(async () => sawProgress, 30_000);
    process.kill(forkServer.pid as number, 'SIGKILL');
    await pollUntil(async () => forkServer.state !== 'ready', 5_000, 10);
    expect((await underWay).ok).toBe(true);
    // A job submitted at once: it takes the idle forked spare (it outlives its fork server), a full
    // standby process, or a launcher that became one, or starts cold; whichever, it runs.
    const outcome = await runEngine({ ...installation, standby }, solve(jobDir('after-loss')));
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    await pollUntil(async () => forkServer.state === 'ready', 60_000);
    expect(forkServer.starts).toBe(2);
    // Back to forked spares once the old spares are used up.
    const before = standby.takenForked;
    for (let i = 0; i < 4 && standby.takenForked === before; i++) {
      await pollUntil(async () => standby.readyCount() >= 1, 60_000);
      const next = await runEngine({ ...installation, standby }, solve(jobDir(`after-restart-${i}`)));
      expect(next.ok, JSON.stringify(next)).toBe(true);
    }
    expect(standby.takenForked).toBe(before + 1);
  });

  it('closing kills the fork server, its spares and their launchers', async () => {
    const { standby, forkServer } = pool(2);
    await pollUntil(async () => standby.readyCount() === 2, 60_000);
    const serverPid = forkServer.pid as number;
    const pids = [serverPid, ...standby.processIds(), ...forkedChildren(serverPid)];
    expect(pids).toHaveLength(5);
    await standby.close();
    await pollUntil(async () => pids.filter(alive).length === 0, 2_000, 10);
    expect(forkServer.state).toBe('down');
  });
});
