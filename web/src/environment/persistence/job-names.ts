/**
 * The model file name of each analysis this tab submitted, so a job reopened from the address (F5 on
 * `?job=…`) or from Recent Activity is named as the user knows it, not "job 1a2b3c4d" (qa30). Per tab,
 * like the running job: it goes with the tab, and another account's tab never sees it.
 */
const KEY = 'fieldline.environment.jobNames';
const KEPT = 50;

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

function names(): [string, string][] {
  const text = storage()?.getItem(KEY);
  if (!text) return [];
  try {
    const list = JSON.parse(text) as unknown;
    return Array.isArray(list)
      ? list.filter(
          (e): e is [string, string] =>
            Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

export function rememberJobName(jobId: string, fileName: string): void {
  const kept = [[jobId, fileName] as [string, string], ...names().filter(([id]) => id !== jobId)].slice(
    0,
    KEPT,
  );
  try {
    storage()?.setItem(KEY, JSON.stringify(kept));
  } catch {
    // storage full or refused: the job is then shown under its id
  }
}

export function jobName(jobId: string): string | null {
  return names().find(([id]) => id === jobId)?.[1] ?? null;
}
