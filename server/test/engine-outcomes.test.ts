import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEngine } from '../src/engine/engine-runner.ts';

// How an engine's last words become the job's outcome, with stand-in engines that say exactly those words.
const dir = mkdtempSync(join(tmpdir(), 'fieldline-outcomes-'));

function engineSaying(name: string, stdout: string, stderr = '', code = 1): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!/bin/sh\ncat <<'OUT'\n${stdout}\nOUT\ncat >&2 <<'ERR'\n${stderr}\nERR\nexit ${code}\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

const run = (python: string) =>
  runEngine({ python, engineDir: dir }, { command: 'solve', timeoutSeconds: 10, memoryLimitMb: 1536 });

describe('engine outcomes', () => {
  it('a thread that cannot start under the memory limit is the memory limit, not an internal error', async () => {
    // What NGSolve says when RLIMIT_AS leaves no room for its threads' stacks (measured: 8 threads, cold,
    // at 1347 MB): pthread_create's EAGAIN, reported by the engine as an internal error.
    const python = engineSaying(
      'eagain.sh',
      '{"event":"error","code":"engine_error","message":"Internal solver error: RuntimeError: Resource temporarily unavailable"}',
      'RuntimeError: Resource temporarily unavailable',
    );
    expect(await run(python)).toMatchObject({
      ok: false,
      code: 'memory_limit',
      message:
        'The job exceeded its memory limit of 1536 MB. Use a coarser mesh or lower element order, or ask the operator to raise the limit (JOB_MEMORY_LIMIT_MB).',
    });
  });

  it('other internal errors stay internal errors', async () => {
    const python = engineSaying(
      'other.sh',
      '{"event":"error","code":"engine_error","message":"Internal solver error: ValueError: bad thing"}',
    );
    expect(await run(python)).toMatchObject({
      ok: false,
      code: 'engine_error',
      message: 'Internal solver error: ValueError: bad thing',
    });
  });
});
