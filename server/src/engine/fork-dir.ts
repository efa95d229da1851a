import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'fieldline-fork-';

/**
 * The fork server's private 0700 directory, named after this process (`fieldline-fork-<pid>-XXXXXX`).
 * A server killed with SIGKILL cannot remove its own, and its fork server removes it only when it sees the
 * server gone while it runs — not while it was being restarted — so each new directory first sweeps away
 * this user's directories whose process is gone (they hold nothing but dead sockets).
 */
export function makeForkDirectory(): string {
  removeStaleForkDirectories();
  return mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
}

export function removeStaleForkDirectories(dir = tmpdir()): string[] {
  const removed: string[] = [];
  const uid = process.getuid?.();
  for (const name of safeList(dir)) {
    const pid = /^fieldline-fork-(\d+)-/.exec(name)?.[1];
    if (!pid || alive(Number(pid))) continue;
    const path = join(dir, name);
    try {
      if (uid !== undefined && statSync(path).uid !== uid) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // raced with another server's sweep, or not ours to remove
    }
  }
  return removed;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.startsWith(PREFIX));
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // someone else's live process
  }
}
