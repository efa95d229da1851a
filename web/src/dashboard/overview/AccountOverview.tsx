import { type SubscriptionInfo, TOKEN_PLAN_ID } from '@fieldline/contracts';
import { useAuth } from '../../auth/index.ts';
import { planLabel } from '../../billing/usage-rules.ts';

/** Plan badge: the subscription's plan, else the user's plan, else 'Token' (spec 000 §2). */
export function displayedPlan(
  subscription: Pick<SubscriptionInfo, 'plan'> | null,
  userPlan?: string,
): string {
  return subscription?.plan || userPlan || TOKEN_PLAN_ID;
}

/** Status badge colour: green when active, red otherwise; 'Unknown' when there is no status. */
export function statusBadge(status: string | null | undefined): { text: string; tone: 'ok' | 'bad' } {
  if (!status) return { text: 'Unknown', tone: 'bad' };
  return { text: planLabel(status), tone: status === 'active' ? 'ok' : 'bad' };
}

/** Spec 000 §2 Account Overview: email, plan badge, subscription status badge, account status. */
export function AccountOverview({ subscription }: { subscription: SubscriptionInfo | null }) {
  const { currentUser } = useAuth();
  const plan = displayedPlan(subscription, currentUser?.plan);
  const status = statusBadge(subscription?.status);
  return (
    <section className="panel-card dash-overview" aria-labelledby="overview-title">
      <h2 id="overview-title">Account Overview</h2>
      <dl className="dash-facts">
        <div className="dash-fact-stacked">
          <dt>Email</dt>
          <dd>{currentUser?.email}</dd>
        </div>
        <div>
          <dt>Plan</dt>
          <dd>
            <span className="dash-badge dash-badge-plan" data-testid="overview-plan">
              {planLabel(plan)}
            </span>
          </dd>
        </div>
        {plan !== TOKEN_PLAN_ID && (
          <div>
            <dt>Subscription</dt>
            <dd>
              <span className={`dash-badge dash-badge-${status.tone}`} data-testid="overview-status">
                {status.text}
              </span>
              {subscription?.cancel_at_period_end && (
                <span className="muted dash-note"> cancels at the end of the period</span>
              )}
            </dd>
          </div>
        )}
        <div>
          <dt>Account status</dt>
          <dd>{planLabel(currentUser?.status || 'active')}</dd>
        </div>
      </dl>
    </section>
  );
}
