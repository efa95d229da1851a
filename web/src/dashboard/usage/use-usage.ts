import { type SubscriptionInfo, USAGE_POLL_INTERVAL_MS } from '@fieldline/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchSubscriptionInfo, syncUsage } from '../../billing/billing-api.ts';

export interface UsageState {
  info: SubscriptionInfo | null;
  loading: boolean;
  /** True after a failed fetch: the panel shows 'Failed to fetch usage data' with Retry. */
  failed: boolean;
  syncing: boolean;
  refresh(): Promise<void>;
  sync(): Promise<void>;
}

/**
 * The usage panel's data: fetched on mount, polled every 30 s (spec 000 §7), refreshed on demand;
 * a successful sync reloads it. Each successful load is reported to `onUpdate` so the dashboard's
 * stored usage follows (spec 000 §4).
 */
export function useUsage(onUpdate?: (info: SubscriptionInfo) => void): UsageState {
  const [info, setInfo] = useState<SubscriptionInfo | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [syncing, setSyncing] = useState(false);
  const onUpdateRef = useRef(onUpdate);
  onUpdateRef.current = onUpdate;
  const mounted = useRef(true);

  const refresh = useCallback(async () => {
    setLoading(true);
    const result = await fetchSubscriptionInfo({ credentials: true });
    if (!mounted.current) return;
    setLoading(false);
    if (!result.ok) {
      setFailed(true);
      return;
    }
    setFailed(false);
    setInfo(result.info);
    onUpdateRef.current?.(result.info);
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

  return { info, loading, failed, syncing, refresh, sync };
}
