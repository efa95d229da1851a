import type { LocalCheckoutSession } from '@fieldline/contracts';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { fetchLocalCheckout, finishLocalCheckout } from '../billing/billing-api.ts';
import { formatDate } from '../billing/usage-rules.ts';
import { DashboardTopBar } from '../dashboard/overview/DashboardTopBar.tsx';
import '../dashboard/dashboard.css';
import '../billing/billing.css';
import { usePageTitle } from '../components/page-title.ts';

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);

/**
 * The built-in hosted checkout (used when no Stripe keys are configured): shows what is being bought,
 * clearly marked as test mode, and completes or cancels it. Completing runs on the server the same
 * fulfilment a Stripe webhook runs; then the browser returns to the Billing page.
 */
export function CheckoutPage() {
  usePageTitle('Checkout');
  const { sessionId = '' } = useParams();
  const navigate = useNavigate();
  const [session, setSession] = useState<LocalCheckoutSession | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'complete' | 'cancel' | null>(null);

  useEffect(() => {
    void fetchLocalCheckout(sessionId).then((outcome) => {
      if (outcome.ok) setSession(outcome.value);
      else setError(outcome.message);
    });
  }, [sessionId]);

  const finish = async (action: 'complete' | 'cancel') => {
    setBusy(action);
    setError(null);
    const outcome = await finishLocalCheckout(sessionId, action);
    if (!outcome.ok) {
      setError(outcome.message);
      setBusy(null);
      return;
    }
    navigate(`/billing?checkout=${action === 'complete' ? 'success' : 'cancelled'}`, { replace: true });
  };

  const open = session?.status === 'open';
  return (
    <div className="dash-page">
      <DashboardTopBar />
      <main className="dash-main">
        <section className="panel-card bill-checkout" aria-labelledby="checkout-title">
          <div className="bill-test-banner" role="note">
            <span className="bill-test-pill">TEST MODE</span>
            <span>This is Fieldline's built-in checkout. No card is charged and no money moves.</span>
          </div>
          <h1 id="checkout-title">Checkout</h1>
          {error && (
            <p className="bill-error" role="alert">
              {error}
            </p>
          )}
          {session && (
            <>
              <div className="bill-summary">
                <div className="bill-summary-row">
                  <span>{session.description}</span>
                  <span>
                    {money(session.amount_cents, session.currency)}
                    {session.interval ? ` / ${session.interval}` : ''}
                  </span>
                </div>
                <div className="bill-summary-row bill-summary-total">
                  <span>Total due today</span>
                  <span data-testid="checkout-total">{money(session.amount_cents, session.currency)}</span>
                </div>
              </div>
              {open ? (
                <p className="muted">
                  Completing credits your account exactly as a confirmed card payment would. The session
                  expires {formatDate(session.expires_at, true)}.
                </p>
              ) : (
                <p className="muted">This checkout is {session.status}.</p>
              )}
              <div className="button-row">
                <button type="button" onClick={() => void finish('cancel')} disabled={!open || busy !== null}>
                  {busy === 'cancel' ? 'Cancelling...' : 'Cancel'}
                </button>
                <button
                  type="button"
                  className="primary"
                  onClick={() => void finish('complete')}
                  disabled={!open || busy !== null}
                >
                  {busy === 'complete'
                    ? 'Processing...'
                    : `Pay ${money(session.amount_cents, session.currency)} (test)`}
                </button>
              </div>
            </>
          )}
          {!session && !error && <p className="muted">Loading…</p>}
          <p className="bill-back">
            <Link to="/billing">Back to Billing</Link>
          </p>
        </section>
      </main>
    </div>
  );
}
