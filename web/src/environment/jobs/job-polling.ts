import { errorText, isRecord } from '../../api/http.ts';
import type { HttpResult } from '../api/fea-api.ts';
import { sleep } from './sleep.ts';

/** Spec 001 §9 polling constants. */
export const ANALYSIS_POLLING = {
  firstDelayMs: 1000,
  intervalMs: 2000,
  maxAttempts: 150,
  maxErrors: 10,
  busyDelayMs: 4000,
};
export const MESHING_POLLING = { firstDelayMs: 2000, intervalMs: 2000, maxAttempts: 60, maxErrors: 5 };
export const GENERIC_WAIT = { timeoutMs: 300_000, intervalMs: 3000, maxConsecutiveErrors: 5 };

export const analysisTimeoutMessage = () =>
  'Analysis timed out after 300 seconds. The job may still be running on the server.';
export const pollingFailedMessage = (attempts: number, detail: string) =>
  `Polling failed after ${attempts} attempts: ${detail}`;

export type StatusBody = Record<string, unknown> & {
  status?: string;
  progress?: number;
  error?: string;
  message?: string;
  results?: unknown;
};

/** One status answer, classified by the rules of spec 001 §4 and §7. */
export type PollOutcome =
  | { kind: 'running'; progress?: number; message?: string }
  | { kind: 'completed'; body: StatusBody }
  | { kind: 'failed'; body: StatusBody }
  | { kind: 'cancelled'; body: StatusBody }
  | { kind: 'busy' }
  | { kind: 'error'; detail: string };

const BUSY = /server (is )?busy|too many|overloaded/i;

export function classifyStatus(result: HttpResult): PollOutcome {
  if (result.status === 404) return { kind: 'running', progress: 0 };
  if (result.status === 500) return { kind: 'running', progress: 50 };
  if (result.status === 503 || result.status === 429 || BUSY.test(errorText(result.json) ?? '')) {
    return { kind: 'busy' };
  }
  if (!result.ok || !isRecord(result.json)) {
    return { kind: 'error', detail: errorText(result.json) ?? `HTTP ${result.status}` };
  }
  const body = result.json as StatusBody;
  switch (body.status) {
    case 'completed':
      return { kind: 'completed', body };
    case 'failed':
    case 'error':
      return { kind: 'failed', body };
    case 'cancelled':
      return { kind: 'cancelled', body };
    default:
      // running, queued and any unknown state: still running, keep polling (spec 001 §4)
      return {
        kind: 'running',
        progress: typeof body.progress === 'number' ? body.progress : undefined,
        message: typeof body.message === 'string' ? body.message : undefined,
      };
  }
}

export type PollEnd =
  | { kind: 'completed'; body: StatusBody }
  | { kind: 'failed'; body: StatusBody }
  | { kind: 'cancelled'; body: StatusBody }
  | { kind: 'timeout'; attempts: number }
  | { kind: 'too-many-errors'; errors: number; detail: string };

export interface PollRules {
  firstDelayMs: number;
  intervalMs: number;
  maxAttempts: number;
  /** more than this many failed polls ends polling */
  maxErrors: number;
  /** server-busy answers add 5 % (up to 95) and wait this long; absent: busy counts as an error */
  busyDelayMs?: number;
  /** errors must be consecutive to count (the generic wait) */
  consecutiveErrors?: boolean;
}

export interface PollDeps {
  fetchStatus: () => Promise<HttpResult>;
  onProgress?: (progress: number, message?: string) => void;
  signal?: AbortSignal;
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Polls a job until it ends, by the given rules; the caller turns the end into its messages. */
export async function pollJob(rules: PollRules, deps: PollDeps): Promise<PollEnd> {
  const wait = deps.wait ?? sleep;
  let progress = 0;
  let errors = 0;
  let delay = rules.firstDelayMs;
  for (let attempt = 1; attempt <= rules.maxAttempts; attempt++) {
    await wait(delay, deps.signal);
    delay = rules.intervalMs;
    let outcome: PollOutcome;
    try {
      outcome = classifyStatus(await deps.fetchStatus());
    } catch (err) {
      if (deps.signal?.aborted) throw err;
      outcome = { kind: 'error', detail: err instanceof Error ? err.message : String(err) };
    }
    if (outcome.kind === 'busy' && rules.busyDelayMs === undefined) {
      outcome = { kind: 'error', detail: 'Server busy' };
    }
    switch (outcome.kind) {
      case 'completed':
      case 'failed':
      case 'cancelled':
        return outcome;
      case 'running':
        if (rules.consecutiveErrors) errors = 0;
        if (outcome.progress !== undefined) progress = outcome.progress;
        deps.onProgress?.(progress, outcome.message);
        break;
      case 'busy':
        progress = Math.min(95, progress + 5);
        deps.onProgress?.(progress);
        delay = rules.busyDelayMs ?? rules.intervalMs;
        break;
      case 'error':
        errors++;
        if (errors > rules.maxErrors) return { kind: 'too-many-errors', errors, detail: outcome.detail };
        break;
    }
  }
  return { kind: 'timeout', attempts: rules.maxAttempts };
}

/** The generic wait of spec 001 §9: 300 s, every 3 s, stops after 5 consecutive errors. */
export const GENERIC_WAIT_RULES: PollRules = {
  firstDelayMs: GENERIC_WAIT.intervalMs,
  intervalMs: GENERIC_WAIT.intervalMs,
  maxAttempts: GENERIC_WAIT.timeoutMs / GENERIC_WAIT.intervalMs,
  maxErrors: GENERIC_WAIT.maxConsecutiveErrors - 1,
  consecutiveErrors: true,
};
