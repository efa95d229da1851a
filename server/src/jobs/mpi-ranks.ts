import { type AnalysisConfig, emIsFullWave } from '@fieldline/contracts';

/**
 * How many MPI ranks a job may run on (docs/distributed.md). The engine shares a full-wave job's
 * independent solves — (frequency, driven port) of a uniform sweep — among its ranks; each rank builds its
 * own operator, so each needs the memory of a one-process run. Decided at submit (model, plan, memory
 * limit) and written beside job.json as RANKS_FILE; the worker then takes as many as its MPI_SLOTS allow.
 */
export interface RankRequest {
  /** The most ranks this job can use: solves to share, the plan's cap and the memory limit. */
  max_ranks: number;
  /** The estimated peak memory of one rank (a one-process run's estimate). */
  memory_bytes_per_rank: number;
  independent_solves: number;
}

export const RANKS_FILE = 'ranks.json';

/** Solves the ranks can share: frequencies × ports of a uniform full-wave sweep; 1 for anything else. */
export function independentSolves(config: AnalysisConfig): number {
  if (config.analysisType !== 'em' || !emIsFullWave(config)) return 1;
  const c = config as AnalysisConfig & {
    sParamNumPoints?: number;
    sParamSweepType?: string;
    sParamFreqMin?: number;
    sParamFreqMax?: number;
  };
  const ports = c.useWavePorts ? Math.max(1, c.wavePorts?.length ?? 0) : 1;
  if (!(c.calculateSParameters || c.extractSParameters)) return ports;
  const fmin = c.sParamFreqMin ?? 1e9;
  const fmax = c.sParamFreqMax ?? 1e10;
  const n = fmax === fmin ? 1 : Math.max(1, c.sParamNumPoints ?? 101);
  // The adaptive sweep's greedy loop is sequential: the engine runs it on rank 0 alone.
  if (c.sParamSweepType === 'adaptive' && n >= 6) return 1;
  // The field frequency is solved as well when it is not one of the sweep's points (engine sweep.py).
  const f0 = c.frequency ?? 0;
  const onGrid =
    !(f0 > 0) ||
    Array.from({ length: n }, (_, k) => (n === 1 ? fmin : fmin + ((fmax - fmin) * k) / (n - 1))).some(
      (f) => Math.abs(f - f0) <= 1e-9 * f0,
    );
  return (n + (onGrid ? 0 : 1)) * ports;
}

export function rankRequest(
  config: AnalysisConfig,
  memoryBytesPerRank: number,
  memoryLimitMb: number,
  planMaxRanks: number,
): RankRequest {
  const solves = independentSolves(config);
  const fitting = Math.floor((memoryLimitMb * 1024 * 1024) / Math.max(1, memoryBytesPerRank));
  return {
    max_ranks: Math.max(1, Math.min(solves, Math.floor(planMaxRanks), fitting)),
    memory_bytes_per_rank: Math.round(memoryBytesPerRank),
    independent_solves: solves,
  };
}

/** The ranks a worker starts for a job: its request within the worker's MPI_SLOTS (1 without a request). */
export function chooseRanks(request: RankRequest | null, slots: number): number {
  if (!request) return 1;
  return Math.max(1, Math.min(Math.floor(slots), Math.floor(request.max_ranks)));
}

/** Threads each rank runs: FIELDLINE_THREADS when the operator set it, else 1 (see coresCharged). */
export function threadsPerRank(env: NodeJS.ProcessEnv = process.env): number {
  const raw = Number.parseInt(env.FIELDLINE_THREADS ?? '', 10);
  return Number.isFinite(raw) && raw > 0 ? raw : 1;
}

/** Cores a run is charged for (docs/billing.md): ranks × threads per rank. */
export function coresCharged(ranks: number, threads: number): number {
  return Math.max(1, Math.floor(ranks)) * Math.max(1, Math.floor(threads));
}

export function parseRankRequest(text: string): RankRequest | null {
  try {
    const value = JSON.parse(text) as Partial<RankRequest>;
    return typeof value.max_ranks === 'number' && value.max_ranks >= 1 ? (value as RankRequest) : null;
  } catch {
    return null;
  }
}
