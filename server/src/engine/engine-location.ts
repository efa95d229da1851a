import type { AppConfig } from '../config.ts';
import { EngineForkServer } from './engine-fork-server.ts';
import type { EngineLocation } from './engine-runner.ts';
import { EngineStandby, type StandbyLog } from './engine-standby.ts';

/**
 * Where and how this process starts engines. `runsJobs`: a process that runs one job after another
 * (the embedded queue, a `fieldline worker`) keeps ENGINE_STANDBY warm engine processes; started with
 * `location.standby?.start()` once it begins taking jobs, closed on shutdown. With ENGINE_FORK_SERVER the
 * spares are forked from one warmed-up engine process (engine-fork-server.ts).
 */
export function engineLocation(config: AppConfig, runsJobs: boolean, log?: StandbyLog): EngineLocation {
  const installation = {
    python: config.enginePython,
    engineDir: config.engineDir,
    isolateNetwork: config.engineNetworkIsolation === 'auto',
    spareLauncher: config.engineSpareLauncher,
  };
  const standby =
    runsJobs && config.engineStandby > 0
      ? new EngineStandby(
          installation,
          config.engineStandby,
          log,
          config.engineForkServer ? new EngineForkServer(installation, log) : undefined,
        )
      : undefined;
  return { ...installation, standby };
}
