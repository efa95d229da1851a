import { BILLING_MESSAGES, type PlansResponse, type SubscriptionInfo } from '@fieldline/contracts';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAuth } from '../auth/index.ts';
import {
  createCheckoutSession,
  fetchPlans,
  fetchSubscriptionInfo,
  openBillingPortal,
  purchaseTokens,
  redirectTo,
} from '../billing/billing-api.ts';
import { CurrentStatusCard } from '../billing/CurrentStatusCard.tsx';
import { PlanCard } from '../billing/PlanCard.tsx';
import { TokenPurchase } from '../billing/TokenPurchase.tsx';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { DashboardTopBar } from '../dashboard/overview/DashboardTopBar.tsx';
import '../dashboard/dashboard.css';
import '../billing/billing.css';
import { usePageTitle } from '../components/page-title.ts';

type Tab = 'subscriptions' | 'tokens';

/** After a successful checkout: read the status every 3 s for 30 s while the confirmation arrives. */
const CONFIRMATION_READS = 10;
const CONFIRMATION_READ_MS = 3000;
type Busy = { kind: 'plan'; id: string } | { kind: 'tokens' } | { kind: 'portal' } | null;

const CHECKOUT_NOTICES: Record<string, { tone: 'success' | 'info'; text: string }> = {
  success: {
    tone: 'success',
    text: 'Payment complete. Your purchase shows here as soon as the payment is confirmed.',
  },
  cancelled: { tone: 'info', text: 'Checkout cancelled. Nothing was charged.' },
};

/** Spec 000 §2 Billing page: current status, monthly plans and token packs. */
export function BillingPage() {
  usePageTitle('Billing');
  const { refresh: refreshAuth } = useAuth();
  const [params] = useSearchParams();
  const [plans, setPlans] = useState<PlansResponse | null>(null);
  const [subscription, setSubscription] = useState<SubscriptionInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tab, setTab] = useState<Tab>(params.get('tab') === 'tokens' ? 'tokens' : 'subscriptions');
  const [busy, setBusy] = useState<Busy>(null);
  const notice = CHECKOUT_NOTICES[params.get('checkout') ?? ''];

  const loadSubscription = useCallback(async () => {
    // Sent without explicit credentials (spec 000 §7); same-origin cookies ride along anyway.
    const result = await fetchSubscriptionInfo({ credentials: false });
    if (result.ok) setSubscription(result.info);
    else
      setError(
        result.reason === 'not-ok'
          ? BILLING_MESSAGES.subscriptionLoadFailed
          : BILLING_MESSAGES.subscriptionLoadError,
      );
  }, []);

  useEffect(() => {
    void fetchPlans().then((outcome) => {
      if (outcome.ok) setPlans(outcome.value);
      else setError(outcome.message);
    });
    void loadSubscription();
  }, [loadSubscription]);

  // Back from a checkout: the payment is applied when the provider confirms it (Stripe's webhook may
  // arrive a little after the browser), so the status is read again for a while, and the user too.
  useEffect(() => {
    if (params.get('checkout') !== 'success') return;
    void refreshAuth();
    let reads = 0;
    const timer = setInterval(() => {
      reads += 1;
      void loadSubscription();
      if (reads >= CONFIRMATION_READS) {
        clearInterval(timer);
        void refreshAuth();
      }
    }, CONFIRMATION_READ_MS);
    return () => clearInterval(timer);
  }, [params, refreshAuth, loadSubscription]);

  const go = async (
    next: Busy,
    call: () => Promise<{ ok: true; value: string } | { ok: false; message: string }>,
  ) => {
    setBusy(next);
    setError(null);
    const outcome = await call();
    if (outcome.ok) {
      redirectTo(outcome.value);
      return; // the page is leaving; keep the button busy
    }
    setError(outcome.message);
    setBusy(null);
  };

  const ready = error !== null || (plans !== null && subscription !== null);
  const monthly = Object.entries(plans ?? {}).filter(([, plan]) => plan.billing_cycle === 'monthly');
  const subscribedTo =
    subscription && ['active', 'trialing', 'past_due'].includes(subscription.status)
      ? subscription.plan
      : null;

  return (
    <div className="dash-page">
      <DashboardTopBar />
      <main className="dash-main bill-main">
        <h1 className="dash-welcome">Billing &amp; Pricing</h1>
        {error && (
          <p className="bill-error" role="alert">
            {error}
          </p>
        )}
        {notice && <div className={`banner banner-${notice.tone}`}>{notice.text}</div>}
        {/* Everything below appears at once when the plans and the status are in: no layout shift. */}
        {ready ? (
          <>
            {subscription?.payment_provider === 'local' && (
              <div className="banner banner-info bill-test-mode">
                Test mode: purchases go through Fieldline's built-in checkout and no card is charged.
              </div>
            )}

            <CurrentStatusCard
              subscription={subscription}
              managing={busy?.kind === 'portal'}
              onManage={() => void go({ kind: 'portal' }, openBillingPortal)}
            />

            <div className="bill-tabs" role="tablist" aria-label="Purchase options">
              <button
                type="button"
                role="tab"
                aria-selected={tab === 'subscriptions'}
                className={tab === 'subscriptions' ? 'bill-tab bill-tab-active' : 'bill-tab'}
                onClick={() => setTab('subscriptions')}
              >
                Monthly Subscriptions
              </button>
              <button
                type="button"
                role="tab"
                aria-selected={tab === 'tokens'}
                className={tab === 'tokens' ? 'bill-tab bill-tab-active' : 'bill-tab'}
                onClick={() => setTab('tokens')}
              >
                Buy Tokens
              </button>
            </div>

            {tab === 'subscriptions' ? (
              <div className="bill-plans" role="tabpanel" aria-label="Monthly Subscriptions">
                {plans === null && !error && <p className="muted">Loading plans…</p>}
                {plans !== null && monthly.length === 0 && (
                  <p className="muted">No monthly plans are offered.</p>
                )}
                {monthly.map(([id, plan]) => (
                  <PlanCard
                    key={id}
                    id={id}
                    plan={plan}
                    current={subscribedTo === id}
                    busy={busy?.kind === 'plan' && busy.id === id}
                    disabled={busy !== null}
                    onSubscribe={() =>
                      void go({ kind: 'plan', id }, () => createCheckoutSession(plan.stripe_price_id))
                    }
                  />
                ))}
              </div>
            ) : (
              <div role="tabpanel" aria-label="Buy Tokens">
                <TokenPurchase
                  busy={busy?.kind === 'tokens'}
                  disabled={busy !== null}
                  onPurchase={(quantity) => void go({ kind: 'tokens' }, () => purchaseTokens(quantity))}
                />
              </div>
            )}
          </>
        ) : (
          <p className="muted bill-loading" role="status">
            Loading billing…
          </p>
        )}
      </main>
      <SiteFooter />
    </div>
  );
}
