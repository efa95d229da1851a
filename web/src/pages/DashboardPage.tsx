import { BILLING_MESSAGES, type SubscriptionInfo } from '@fieldline/contracts';
import { useAuth } from '../auth/index.ts';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { DebugPanel } from '../dashboard/debug/DebugPanel.tsx';
import { AccountOverview, displayedPlan } from '../dashboard/overview/AccountOverview.tsx';
import { DashboardCards, type StoredUsage } from '../dashboard/overview/DashboardCards.tsx';
import { DashboardTopBar } from '../dashboard/overview/DashboardTopBar.tsx';
import { RecentActivity } from '../dashboard/overview/RecentActivity.tsx';
import { ApiTokensPanel } from '../dashboard/tokens/ApiTokensPanel.tsx';
import { UsagePanel } from '../dashboard/usage/UsagePanel.tsx';
import { useUsage } from '../dashboard/usage/use-usage.ts';
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
  // One subscription-info load (and 30 s poll) for the page and its usage panel.
  const usageState = useUsage();
  const subscription = usageState.info;
  const usage = subscription ? storedUsageOf(subscription) : null;
  const error =
    usageState.firstLoadFailure === 'not-ok'
      ? BILLING_MESSAGES.subscriptionLoadFailed
      : usageState.firstLoadFailure === 'exception'
        ? BILLING_MESSAGES.subscriptionLoadError
        : null;

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
          <UsagePanel usage={usageState} />
        </div>
        <DashboardCards plan={displayedPlan(subscription, currentUser?.plan)} usage={usage} />
        <RecentActivity />
        <ApiTokensPanel />
        <DebugPanel />
      </main>
      <SiteFooter />
    </div>
  );
}
