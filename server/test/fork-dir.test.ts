import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeStaleForkDirectories } from '../src/engine/fork-dir.ts';

describe("the fork server's directory", () => {
  it('is swept away once its server is gone (SIGKILLed servers leave theirs), never a live one', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'fork-dir-test-'));
    const gone = spawnSync('true').pid; // a process that has exited: its pid names a dead server
    const dead = join(tmp, `fieldline-fork-${gone}-aaaaaa`);
    const live = join(tmp, `fieldline-fork-${process.pid}-bbbbbb`);
    const other = join(tmp, 'fieldline-fork-cccccc'); // no pid in its name: not known to be stale
    for (const d of [dead, live, other]) mkdirSync(d);
    writeFileSync(join(dead, 's1'), ''); // a dead socket's name

    expect(removeStaleForkDirectories(tmp)).toEqual([dead]);
    expect([existsSync(dead), existsSync(live), existsSync(other)]).toEqual([false, true, true]);
  });
});
