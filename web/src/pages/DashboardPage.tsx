import { BILLING_MESSAGES, type SubscriptionInfo } from '@fieldline/contracts';
import { useCallback, useEffect, useState } from 'react';
import { useAuth } from '../auth/index.ts';
import { fetchSubscriptionInfo } from '../billing/billing-api.ts';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { DebugPanel } from '../dashboard/debug/DebugPanel.tsx';
import { AccountOverview, displayedPlan } from '../dashboard/overview/AccountOverview.tsx';
import { DashboardCards, type StoredUsage } from '../dashboard/overview/DashboardCards.tsx';
import { DashboardTopBar } from '../dashboard/overview/DashboardTopBar.tsx';
import { RecentActivity } from '../dashboard/overview/RecentActivity.tsx';
import { UsagePanel } from '../dashboard/usage/UsagePanel.tsx';
import '../dashboard/dashboard.css';
import { usePageTitle } from '../components/page-title.ts';

const storedUsageOf = (info: SubscriptionInfo): StoredUsage => ({
  computeHoursUsed: info.compute_hours_used,
  tokensUsed: info.tokens_used,
  tokensAvailable: info.tokens_available,
});

/** Spec 000 §2 Dashboard. */
export function DashboardPage() {
  usePageTitle('Dashboard');
  const { currentUser } = useAuth();
  const [subscription, setSubscription] = useState<SubscriptionInfo | null>(null);
  const [usage, setUsage] = useState<StoredUsage | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void fetchSubscriptionInfo({ credentials: true }).then((result) => {
      if (!live) return;
      if (result.ok) {
        setSubscription(result.info);
        setUsage(storedUsageOf(result.info));
        setError(null);
      } else {
        setError(
          result.reason === 'not-ok'
            ? BILLING_MESSAGES.subscriptionLoadFailed
            : BILLING_MESSAGES.subscriptionLoadError,
        );
      }
    });
    return () => {
      live = false;
    };
  }, []);

  // A usage refresh updates the stored hours and tokens (and the plan, should it have changed meanwhile).
  const onUsageUpdate = useCallback((info: SubscriptionInfo) => {
    setUsage(storedUsageOf(info));
    setSubscription((prev) => (prev ? { ...prev, ...info } : info));
  }, []);

  return (
    <div className="dash-page">
      <DashboardTopBar />
      <main className="dash-main">
        <h1 className="dash-welcome">Welcome, {currentUser?.name}</h1>
        {error && (
          <div className="banner banner-error" role="alert">
            {error}
          </div>
        )}
        <div className="dash-grid">
          <AccountOverview subscription={subscription} />
          <UsagePanel onUsageUpdate={onUsageUpdate} />
        </div>
        <DashboardCards plan={displayedPlan(subscription, currentUser?.plan)} usage={usage} />
        <RecentActivity />
        <DebugPanel />
      </main>
      <SiteFooter />
    </div>
  );
}
