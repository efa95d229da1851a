import type { LocalPortalInfo } from '@fieldline/contracts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../auth/index.ts';
import { cancelLocalSubscription, fetchLocalPortal } from '../billing/billing-api.ts';
import { formatDate, planLabel } from '../billing/usage-rules.ts';
import { DashboardTopBar } from '../dashboard/overview/DashboardTopBar.tsx';
import '../dashboard/dashboard.css';
import '../billing/billing.css';
import { usePageTitle } from '../components/page-title.ts';

/**
 * "Manage Billing" without Stripe: the built-in stand-in for the Customer Portal (test mode). It shows
 * the subscription and cancels it at the end of the paid period, as the Customer Portal does by default.
 */
export function ManageBillingPage() {
  usePageTitle('Manage Billing');
  const { refresh } = useAuth();
  const [info, setInfo] = useState<LocalPortalInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void fetchLocalPortal().then((outcome) => {
      if (outcome.ok) setInfo(outcome.value);
      else setError(outcome.message);
    });
  }, []);

  const cancel = async () => {
    setBusy(true);
    setError(null);
    const outcome = await cancelLocalSubscription();
    setBusy(false);
    if (outcome.ok) {
      setInfo(outcome.value);
      void refresh();
    } else setError(outcome.message);
  };

  return (
    <div className="dash-page">
      <DashboardTopBar />
      <main className="dash-main">
        <section className="panel-card bill-checkout" aria-labelledby="manage-title">
          <div className="bill-test-banner" role="note">
            <span className="bill-test-pill">TEST MODE</span>
            <span>Fieldline's built-in billing management. No card is on file and nothing is charged.</span>
          </div>
          <h1 id="manage-title">Manage Billing</h1>
          {error && (
            <p className="bill-error" role="alert">
              {error}
            </p>
          )}
          {info && (
            <dl className="bill-status-facts">
              <div>
                <dt>Plan</dt>
                <dd>{planLabel(info.plan)}</dd>
              </div>
              <div>
                <dt>Status</dt>
                <dd>{planLabel(info.status)}</dd>
              </div>
              {info.current_period_end && (
                <div>
                  <dt>{info.cancel_at_period_end ? 'Ends' : 'Renews'}</dt>
                  <dd>{formatDate(info.current_period_end)}</dd>
                </div>
              )}
            </dl>
          )}
          {info?.subscription_id && !info.cancel_at_period_end && (
            <div className="button-row">
              <button type="button" onClick={() => void cancel()} disabled={busy}>
                {busy ? 'Cancelling...' : 'Cancel subscription'}
              </button>
            </div>
          )}
          {info?.cancel_at_period_end && (
            <p className="muted">
              Your subscription is cancelled and stays active until the end of the paid period; then your
              account returns to the pay-as-you-go token plan.
            </p>
          )}
          {info && !info.subscription_id && (
            <p className="muted">
              You have no subscription. Your account is on the pay-as-you-go token plan.
            </p>
          )}
          <p className="bill-back">
            <Link to="/billing">Back to Billing</Link>
          </p>
        </section>
      </main>
    </div>
  );
}
