import { type EngineLocation, runEngine } from './engine-runner.ts';

export interface EngineHealth {
  available: boolean;
  versions?: Record<string, string>;
  direct_solvers?: string[];
  error?: string;
}

const CACHE_MS = 5 * 60_000;

/** Asks the engine for its versions and solvers; cached because importing NGSolve takes a second. */
export class EngineHealthProbe {
  private cached: { at: number; value: EngineHealth } | null = null;
  private inflight: Promise<EngineHealth> | null = null;

  constructor(private readonly engine: EngineLocation) {}

  async get(): Promise<EngineHealth> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached.value;
    this.inflight ??= this.probe().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private async probe(): Promise<EngineHealth> {
    const outcome = await runEngine(this.engine, {
      command: 'health',
      timeoutSeconds: 60,
      memoryLimitMb: 2048,
    });
    const value: EngineHealth = outcome.ok
      ? {
          available: true,
          versions: outcome.result.versions as Record<string, string>,
          direct_solvers: outcome.result.direct_solvers as string[],
        }
      : { available: false, error: outcome.message };
    this.cached = { at: Date.now(), value };
    return value;
  }
}
