import { spawnSync } from 'node:child_process';

let cached: string[] | null = null;

/**
 * The command prefix that starts a process in a new, empty network namespace (no interfaces but
 * loopback, so untrusted CAD files cannot make the parser reach anything), or [] where the system
 * does not allow it. As root `unshare -n` works; otherwise an unprivileged user namespace
 * (`unshare -rn`) may. Probed once per server process.
 */
export function networkIsolationPrefix(): string[] {
  if (cached) return cached;
  cached = [];
  for (const flags of [['-n'], ['-r', '-n']]) {
    const probe = spawnSync('unshare', [...flags, 'true'], { stdio: 'ignore', timeout: 5000 });
    if (probe.status === 0) {
      cached = ['unshare', ...flags];
      break;
    }
  }
  return cached;
}
