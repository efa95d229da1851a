import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { runEngine } from '../src/engine/engine-runner.ts';
import { EngineStandby } from '../src/engine/engine-standby.ts';
import { engineProcesses } from './robustness/fault-ledger.ts';
import { pollUntil, tinyJob } from './support/compute.ts';

// The real engine, as the server starts it (ENGINE_PYTHON, ENGINE_DIR defaults).
const config = loadConfig({ ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'fieldline-standby-')) });
const installation = { python: config.enginePython, engineDir: config.engineDir, isolateNetwork: true };
const workDir = mkdtempSync(join(tmpdir(), 'fieldline-standby-jobs-'));
const HOOKS = { FIELDLINE_ENGINE_PLUGIN: 'fieldline_engine.testing.hooks' };

let pools: EngineStandby[] = [];
afterEach(async () => {
  await Promise.all(pools.map((p) => p.close()));
  pools = [];
});

function pool(size = 1, where = installation): EngineStandby {
  const standby = new EngineStandby(where, size);
  pools.push(standby);
  standby.start();
  return standby;
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

const solve = (dir: string, extra: Partial<Parameters<typeof runEngine>[1]> = {}) => ({
  command: 'solve',
  jobDir: dir,
  timeoutSeconds: 120,
  memoryLimitMb: 2048,
  ...extra,
});

describe('standby engine processes (ENGINE_STANDBY)', () => {
  it('runs a job on a warm process, sooner than a cold start, with the same result, and starts another', async () => {
    const standby = pool();
    await pollUntil(async () => standby.readyCount() === 1, 60_000);
    const firstSpare = standby.processIds()[0];

    const starts: string[] = [];
    const onStart = (how: string) => starts.push(how);
    const warm = await runEngine({ ...installation, standby }, solve(jobDir('warm'), { onStart }));
    const cold = await runEngine(installation, solve(jobDir('cold'), { onStart }));
    expect(starts).toEqual(['standby', 'cold']);
    console.log(
      `tiny job: cold start ${cold.seconds.toFixed(3)} s, on a standby process ${warm.seconds.toFixed(3)} s`,
    );
    expect(warm.ok && cold.ok, JSON.stringify({ warm, cold })).toBe(true);
    expect(standby.taken).toBe(1);
    expect(warm.seconds).toBeLessThan(cold.seconds);
    const quantities = (dir: string) =>
      (JSON.parse(readFileSync(join(workDir, dir, 'results.json'), 'utf8')) as { quantities: object })
        .quantities;
    expect(Object.keys(quantities('warm')).length).toBeGreaterThan(0);
    expect(quantities('warm')).toEqual(quantities('cold'));

    await pollUntil(async () => standby.readyCount() === 1, 60_000);
    expect(standby.processIds()).not.toContain(firstSpare);
    expect(alive(firstSpare as number)).toBe(false); // it served its one job and exited
  });

  it('cancelling a job on a standby process kills that process', async () => {
    const standby = pool();
    await pollUntil(async () => standby.readyCount() === 1, 60_000);
    const dir = jobDir('cancel', { ...tinyJob(), test_hooks: { sleep_seconds: 60 } });
    const stop = new AbortController();
    let sawProgress = false;
    const running = runEngine(
      { ...installation, standby },
      solve(dir, { env: HOOKS, signal: stop.signal, onProgress: () => (sawProgress = true) }),
    );
    await pollUntil(async () => sawProgress, 30_000);
    // The standby process retitled itself to the job's command line, so operators (and the fault
    // tests) find it by its job directory.
    const [engine] = engineProcesses(dir);
    expect(engine?.jobDir).toBe(dir);
    stop.abort();
    const outcome = await running;
    expect(outcome).toMatchObject({ ok: false, code: 'cancelled' });
    expect(standby.taken).toBe(1);
    await pollUntil(async () => !alive(engine?.pid as number), 10_000);
  });

  it('applies the job memory limit to a standby process', async () => {
    const standby = pool();
    await pollUntil(async () => standby.readyCount() === 1, 60_000);
    const dir = jobDir('memory', { ...tinyJob(), test_hooks: { allocate_mb: 3000 } });
    const outcome = await runEngine(
      { ...installation, standby },
      solve(dir, { env: HOOKS, memoryLimitMb: 1536 }),
    );
    expect(standby.taken).toBe(1);
    expect(outcome).toMatchObject({ ok: false, code: 'memory_limit' });
    expect(outcome.ok ? '' : outcome.message).toContain('memory limit of 1536 MB');
  });

  it('closing kills the idle processes and starts no more', async () => {
    const standby = pool(2);
    await pollUntil(async () => standby.readyCount() === 2, 60_000);
    const pids = standby.processIds();
    expect(pids).toHaveLength(2);
    await standby.close();
    expect(pids.filter(alive)).toEqual([]);
    expect(standby.processIds()).toEqual([]);
    const outcome = await runEngine(
      { ...installation, standby },
      { command: 'health', timeoutSeconds: 60, memoryLimitMb: 2048 },
    );
    expect(outcome.ok).toBe(true); // started cold
    expect(standby.taken).toBe(0);
  });

  it('a broken installation leaves jobs starting cold, with the cold start error', async () => {
    const broken = { python: '/nonexistent/python', engineDir: config.engineDir, isolateNetwork: false };
    const standby = pool(1, broken);
    await pollUntil(async () => standby.processIds().length === 0, 10_000);
    const outcome = await runEngine({ ...broken, standby }, solve(jobDir('broken')));
    expect(outcome).toMatchObject({ ok: false, code: 'engine_unavailable' });
    expect(standby.taken).toBe(0);
    // It does not respawn in a loop: the next try is a minute away.
    await new Promise((r) => setTimeout(r, 500));
    expect(standby.processIds()).toEqual([]);
  });
});
