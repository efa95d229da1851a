/** The analysis job being watched, kept per tab so a reload can pick the watch up again. */
const KEY = 'fieldline.environment.analysisJob';

export interface RunningJob {
  jobId: string;
  fileName: string;
  startedAt: number;
}

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

export function rememberRunningJob(job: RunningJob): void {
  storage()?.setItem(KEY, JSON.stringify(job));
}

export function forgetRunningJob(): void {
  storage()?.removeItem(KEY);
}

export function runningJob(): RunningJob | null {
  const text = storage()?.getItem(KEY);
  if (!text) return null;
  try {
    const job = JSON.parse(text) as RunningJob;
    return typeof job.jobId === 'string' ? job : null;
  } catch {
    return null;
  }
}
