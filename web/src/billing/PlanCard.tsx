import type { Plan } from '@fieldline/contracts';

const dollars = (x: number) => (Number.isInteger(x) ? `$${x}` : `$${x.toFixed(2)}`);

/** One monthly plan with every field of spec 000 §2, and 'Subscribe Now' ('Processing...' while busy). */
export function PlanCard(props: {
  id: string;
  plan: Plan;
  current: boolean;
  busy: boolean;
  disabled: boolean;
  onSubscribe(): void;
}) {
  const { plan } = props;
  return (
    <article
      className={`panel-card bill-plan${props.current ? ' bill-plan-current' : ''}`}
      data-testid={`plan-${props.id}`}
    >
      <header className="bill-plan-head">
        <h3>{plan.name}</h3>
        {props.current && <span className="bill-tag">Current plan</span>}
      </header>
      <p className="muted bill-plan-description">{plan.description}</p>
      <p className="bill-price">
        <span className="bill-amount">{dollars(plan.price_monthly)}</span>
        <span className="muted"> / month</span>
      </p>
      <ul className="bill-features">
        <li>{plan.compute_hours_per_month} compute hours per month</li>
        <li>Token overage: {dollars(plan.token_cost)} per compute-hour</li>
        <li>{plan.features.priority_queue ? 'Priority compute queue' : 'Standard compute queue'}</li>
        <li>{capitalise(plan.features.support_level)} support</li>
        <li>Max file size: {plan.features.max_file_size_mb} MB</li>
        <li>
          {plan.features.concurrent_simulations} concurrent simulation
          {plan.features.concurrent_simulations === 1 ? '' : 's'}
        </li>
      </ul>
      <button
        type="button"
        className="primary bill-subscribe"
        onClick={props.onSubscribe}
        disabled={props.disabled || props.current}
      >
        {props.busy ? 'Processing...' : 'Subscribe Now'}
      </button>
    </article>
  );
}

function capitalise(s: string): string {
  return s ? (s[0] ?? '').toUpperCase() + s.slice(1) : s;
}
