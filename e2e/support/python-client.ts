import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './server.ts';

/** Runs a command in `cwd` and returns its stdout; its stderr is passed on, and named in the error if it fails. */
export function run(cwd: string, cmd: string, args: string[], env: Record<string, string> = {}): string {
  const result = spawnSync(cmd, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 600_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.stderr) process.stderr.write(result.stderr);
  if (result.status !== 0) {
    const why = result.error?.message ?? `exit ${result.status ?? result.signal}`;
    throw new Error(`${cmd} ${args.join(' ').slice(0, 200)} failed (${why}):\n${result.stderr.slice(-4000)}`);
  }
  return result.stdout;
}

/**
 * A fresh virtual environment in `dir`/venv with the Python client installed as a user installs it
 * (`pip install ./clients/python`, binary wheels); returns the path of one of its programs by name
 * (`python`, `fieldline`, …).
 */
export function installPythonClient(dir: string): (program: string) => string {
  const bin = (program: string) => join(dir, 'venv', 'bin', program);
  run(dir, 'python3', ['-m', 'venv', join(dir, 'venv')]);
  run(dir, bin('pip'), [
    'install',
    '-q',
    '--disable-pip-version-check',
    '--prefer-binary',
    join(REPO_ROOT, 'clients/python'),
  ]);
  return bin;
}
