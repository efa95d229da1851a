import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineInstallation } from './engine-process.ts';

/** The command line after the program that makes a process a full standby process (standby.py). */
export const STANDBY_ARGS = ['-m', 'fieldline_engine', 'standby'];

const candidates = new Map<string, string | null>();

/**
 * The compiled launcher of forked spares for this engine directory (engine/launcher/spare_launcher.c, built
 * by scripts/build-launcher.mjs into `build/spare-launcher-<first 16 hex of the source's SHA-256>`), or
 * null when it is not built (no C compiler at install): spares then start through the Python launcher.
 * The source is hashed once per directory; whether the binary is there is checked at each call (one
 * `access`), so a build directory removed under a running server sends spares to the Python launcher
 * rather than failing to spawn.
 */
export function nativeSpareLauncher(engineDir: string): string | null {
  let path = candidates.get(engineDir);
  if (path === undefined) {
    try {
      const source = readFileSync(join(engineDir, 'launcher', 'spare_launcher.c'));
      const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
      path = join(engineDir, 'launcher', 'build', `spare-launcher-${hash}`);
    } catch {
      path = null;
    }
    candidates.set(engineDir, path);
  }
  if (path === null) return null;
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return null;
  }
}

/** The launcher this installation's forked spares start through: the compiled one unless told otherwise. */
export function spareLauncherOf(engine: EngineInstallation): string | null {
  if (engine.spareLauncher === 'python') return null;
  return nativeSpareLauncher(engine.engineDir);
}
