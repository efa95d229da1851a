import type { SubscriptionInfo } from '@fieldline/contracts';
import { formatDate, formatTokenBalance, planLabel } from './usage-rules.ts';

/** Spec 000 §2 Current Status: plan, status and available tokens, each 'N/A' when missing. */
export function CurrentStatusCard(props: {
  subscription: SubscriptionInfo | null;
  managing: boolean;
  onManage(): void;
}) {
  const s = props.subscription;
  const rows: [string, string][] = [
    ['Plan', s?.plan ? planLabel(s.plan) : 'N/A'],
    ['Status', s?.status ? planLabel(s.status) : 'N/A'],
    [
      'Available Tokens',
      typeof s?.tokens_available === 'number' ? formatTokenBalance(s.tokens_available) : 'N/A',
    ],
  ];
  return (
    <section className="panel-card bill-status" aria-labelledby="bill-status-title">
      <h2 id="bill-status-title">Current Status</h2>
      <dl className="bill-status-facts">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd data-testid={`status-${label}`}>{value}</dd>
          </div>
        ))}
        {s?.current_period_end && (
          <div>
            <dt>{s.cancel_at_period_end ? 'Ends' : 'Renews'}</dt>
            <dd>{formatDate(s.current_period_end)}</dd>
          </div>
        )}
      </dl>
      <button type="button" onClick={props.onManage} disabled={props.managing}>
        {props.managing ? 'Opening...' : 'Manage Billing'}
      </button>
    </section>
  );
}
