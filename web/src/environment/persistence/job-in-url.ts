import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { EnvironmentStore } from '../state/environment-state.ts';
import { useStoreState } from '../state/store.ts';

/**
 * The search string that names `jobId` as the job on screen (`?job=…`, the address Recent Activity links
 * to), or drops it when no job is shown. `physics` goes with a job: the job's own config fills the form.
 */
export function searchWithJob(search: string, jobId: string | null): string {
  const params = new URLSearchParams(search);
  if (jobId) {
    params.set('job', jobId);
    params.delete('physics');
  } else params.delete('job');
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * Keeps `?job=` in the address bar equal to the analysis job on screen, from the moment it is submitted or
 * opened, so a reload (F5) opens the same job again with its model, form and results (qa29: the page came
 * back empty). A new upload or Clear Data drops it. `settled` is false until the page has decided what to
 * show at start-up, so the address it was opened with is not dropped before its job is opened.
 * A later change of the address to another job (back/forward) opens that job through `openOther`.
 */
export function useJobInUrl(
  store: EnvironmentStore,
  settled: boolean,
  openOther: (jobId: string) => void,
): void {
  const location = useLocation();
  const navigate = useNavigate();
  const urlJob = new URLSearchParams(location.search).get('job');
  const jobId = useStoreState(store, (s) => s.analysis.jobId) ?? null;
  const seen = useRef<{ urlJob: string | null } | null>(null);
  const open = useRef(openOther);
  open.current = openOther;
  useEffect(() => {
    if (!settled) return;
    const before = seen.current;
    seen.current = { urlJob };
    if (before && urlJob !== before.urlJob && urlJob && urlJob !== jobId) {
      open.current(urlJob);
      return;
    }
    if (urlJob !== jobId) navigate({ search: searchWithJob(location.search, jobId) }, { replace: true });
  }, [settled, urlJob, jobId, location.search, navigate]);
}
