import type { SubscriptionInfo } from '@fieldline/contracts';
import { useNavigate } from 'react-router';
import {
  deriveUsage,
  formatDate,
  formatPercent,
  isTokenPlan,
  planLabel,
  quickActions,
  usageCounts,
  usageLevel,
  usagePercent,
  usageTiles,
  usageWarning,
} from '../../billing/usage-rules.ts';
import type { UsageState } from './use-usage.ts';

/** Spec 000 §2 Usage panel: "Computational Usage", drawn from the dashboard's usage state (use-usage.ts). */
export function UsagePanel({ usage }: { usage: UsageState }) {
  const { info, loading, failed, syncing, refresh, sync } = usage;

  return (
    <section className="panel-card dash-usage" aria-labelledby="usage-title">
      <header className="dash-section-head">
        <h2 id="usage-title">Computational Usage</h2>
        <button
          type="button"
          className="dash-icon-button"
          aria-label="Refresh usage"
          title="Refresh usage"
          disabled={loading}
          onClick={() => void refresh()}
        >
          <RefreshIcon />
        </button>
        {info && <span className="dash-badge dash-badge-plan">{planLabel(info.plan)}</span>}
        {info?.current_period_end && (
          <span className="dash-period-end">
            Billing Period Ends: <strong>{formatDate(info.current_period_end)}</strong>
          </span>
        )}
      </header>
      {failed ? (
        <div className="banner banner-error dash-usage-error" role="alert">
          <span>Failed to fetch usage data</span>
          <button type="button" onClick={() => void refresh()} disabled={loading}>
            Retry
          </button>
        </div>
      ) : info ? (
        <UsageBody info={info} syncing={syncing} onSync={sync} onRefresh={refresh} loading={loading} />
      ) : (
        <p className="muted dash-usage-loading">Loading usage…</p>
      )}
    </section>
  );
}

function UsageBody(props: {
  info: SubscriptionInfo;
  syncing: boolean;
  loading: boolean;
  onSync(): Promise<void>;
  onRefresh(): Promise<void>;
}) {
  const navigate = useNavigate();
  const usage = deriveUsage(props.info);
  const percent = usagePercent(usage);
  const level = usageLevel(percent);
  const counts = usageCounts(usage);
  const actions = quickActions(usage, percent);
  const warning = usageWarning(level, isTokenPlan(usage));
  const shown = Math.min(100, Math.max(0, percent));

  return (
    <>
      <div className="dash-progress-head">
        <span>{counts.label}</span>
        <span className={`dash-percent dash-level-${level}`} data-testid="usage-percent">
          {formatPercent(percent)}
        </span>
      </div>
      <div
        className="dash-progress"
        role="progressbar"
        aria-label={counts.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Number(shown.toFixed(1))}
      >
        <div className={`dash-progress-fill dash-level-${level}`} style={{ width: `${shown}%` }} />
      </div>
      <div className="dash-counts">
        <span data-testid="usage-counts">{counts.counts}</span>
        <span className="muted">{counts.remaining}</span>
      </div>
      {usage.last_compute_time && (
        <p className="muted dash-last-compute">
          Last computation: {formatDate(usage.last_compute_time, true)}
        </p>
      )}

      <div className="dash-tiles">
        {usageTiles(usage).map((tile) => (
          <div key={tile.label} className="dash-tile" data-testid={`tile-${tile.label}`}>
            <span className="dash-tile-label">{tile.label}</span>
            <span className="dash-tile-value">{tile.value}</span>
          </div>
        ))}
      </div>

      {warning && (
        <div className={`dash-warning dash-warning-${level}`} role="status">
          <strong>{warning.title}</strong>
          <span>{warning.text}</span>
        </div>
      )}

      <div className="dash-quick-actions">
        <h3>Quick Actions</h3>
        <div className="button-row">
          {actions.buyMoreTokens && (
            <button type="button" className="primary" onClick={() => navigate('/billing')}>
              Buy More Tokens
            </button>
          )}
          {actions.upgradePlan && (
            <button type="button" className="primary" onClick={() => navigate('/billing')}>
              Upgrade Plan
            </button>
          )}
          <button type="button" onClick={() => navigate('/billing')}>
            View Billing Details
          </button>
          <button type="button" onClick={() => void props.onSync()} disabled={props.syncing}>
            {props.syncing ? 'Syncing...' : 'Sync from AWS'}
          </button>
          <button type="button" onClick={() => void props.onRefresh()} disabled={props.loading}>
            Refresh Usage
          </button>
        </div>
      </div>
    </>
  );
}

function RefreshIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path
        d="M13.5 8a5.5 5.5 0 1 1-1.6-3.9M13.5 2.5v3h-3"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
