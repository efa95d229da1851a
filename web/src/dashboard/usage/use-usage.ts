import { type SubscriptionInfo, USAGE_POLL_INTERVAL_MS } from '@fieldline/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchSubscriptionInfo, syncUsage } from '../../billing/billing-api.ts';

export interface UsageState {
  /** The latest subscription info loaded (null until one load has succeeded). */
  info: SubscriptionInfo | null;
  loading: boolean;
  /** True after a failed fetch: the panel shows 'Failed to fetch usage data' with Retry. */
  failed: boolean;
  /** Why the load on mount failed ('not-ok': an error status; 'exception': no usable answer), else null. */
  firstLoadFailure: 'not-ok' | 'exception' | null;
  syncing: boolean;
  refresh(): Promise<void>;
  sync(): Promise<void>;
}

/**
 * The subscription info of the dashboard and its usage panel: fetched on mount, polled every 30 s
 * (spec 000 §7), refreshed on demand; a successful sync reloads it. The page owns the one copy and
 * hands it to the panel, so opening the dashboard asks for it once, not once per component
 * (spec 000 §4: the dashboard's stored usage follows each refresh).
 */
export function useUsage(): UsageState {
  const [info, setInfo] = useState<SubscriptionInfo | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [firstLoadFailure, setFirstLoadFailure] = useState<UsageState['firstLoadFailure']>(null);
  const [syncing, setSyncing] = useState(false);
  const mounted = useRef(true);
  const firstLoad = useRef(true);

  const refresh = useCallback(async () => {
    setLoading(true);
    const result = await fetchSubscriptionInfo({ credentials: true });
    if (!mounted.current) return;
    if (firstLoad.current) {
      firstLoad.current = false;
      if (!result.ok) setFirstLoadFailure(result.reason);
    }
    setLoading(false);
    if (!result.ok) {
      setFailed(true);
      return;
    }
    setFailed(false);
    setInfo(result.info);
  }, []);

  const sync = useCallback(async () => {
    setSyncing(true);
    const ok = await syncUsage();
    if (!mounted.current) return;
    setSyncing(false);
    if (ok) await refresh();
  }, [refresh]);

  useEffect(() => {
    mounted.current = true;
    void refresh();
    const timer = setInterval(() => void refresh(), USAGE_POLL_INTERVAL_MS);
    return () => {
      mounted.current = false;
      clearInterval(timer);
    };
  }, [refresh]);

  return { info, loading, failed, firstLoadFailure, syncing, refresh, sync };
}
