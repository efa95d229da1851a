import { TOKEN_PLAN_ID } from '@fieldline/contracts';
import { useNavigate } from 'react-router';
import { formatHours, formatTokenBalance } from '../../billing/usage-rules.ts';

/** What the dashboard keeps of the usage, updated by each usage refresh (spec 000 §4). */
export interface StoredUsage {
  computeHoursUsed: number;
  tokensUsed: number;
  tokensAvailable: number;
}

/** Spec 000 §2: New Simulation, Buy Tokens / Manage Plan, Resources & Help. */
export function DashboardCards({ plan, usage }: { plan: string; usage: StoredUsage | null }) {
  const navigate = useNavigate();
  const tokenPlan = plan === TOKEN_PLAN_ID;
  return (
    <div className="dash-cards">
      <section className="panel-card dash-card">
        <h3>New Simulation</h3>
        <p className="muted">
          Upload a STEP, STL or OBJ model, set up the physics and run it on cloud compute.
        </p>
        <div className="button-row">
          <button type="button" className="primary" onClick={() => navigate('/environment')}>
            Launch Simulator
          </button>
        </div>
      </section>
      {tokenPlan ? (
        <section className="panel-card dash-card">
          <h3>Buy Tokens</h3>
          <p className="muted">
            {usage ? `${formatTokenBalance(usage.tokensAvailable)} tokens available. ` : ''}One token buys one
            compute-hour.
          </p>
          <div className="button-row">
            <button type="button" className="primary" onClick={() => navigate('/billing')}>
              Buy More Tokens
            </button>
          </div>
        </section>
      ) : (
        <section className="panel-card dash-card">
          <h3>Manage Plan</h3>
          <p className="muted">
            {usage ? `${formatHours(usage.computeHoursUsed)} used this period. ` : ''}Change your plan or add
            tokens for overage.
          </p>
          <div className="button-row">
            <button type="button" className="primary" onClick={() => navigate('/billing')}>
              Upgrade Plan
            </button>
            <button type="button" onClick={() => navigate('/billing')}>
              Buy Extra Tokens
            </button>
          </div>
        </section>
      )}
      <section className="panel-card dash-card">
        <h3>Resources &amp; Help</h3>
        <p className="muted">Guides to the simulator, validation cases, and a person to ask.</p>
        <div className="button-row">
          <button type="button" onClick={() => navigate('/docs')}>
            View Tutorials
          </button>
          <button type="button" onClick={() => navigate('/support')}>
            Get Support
          </button>
        </div>
      </section>
    </div>
  );
}
