import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from 'vitest';
import { AuthProvider } from '../../src/auth/index.ts';
import * as billingApi from '../../src/billing/billing-api.ts';
import { DebugPanel } from '../../src/dashboard/debug/DebugPanel.tsx';
import { UsagePanel } from '../../src/dashboard/usage/UsagePanel.tsx';
import { useUsage } from '../../src/dashboard/usage/use-usage.ts';
import { BillingPage } from '../../src/pages/BillingPage.tsx';
import { DashboardPage } from '../../src/pages/DashboardPage.tsx';
import { fakeApi, json, subscriptionInfo } from './fake-api.ts';

const plans = {
  token: {
    name: 'Pay As You Go',
    description: 'Tokens',
    price_monthly: 0,
    billing_cycle: 'pay_as_you_go',
    compute_hours_per_month: 0,
    token_cost: 1,
    stripe_price_id: null,
    features: {
      priority_queue: false,
      support_level: 'community',
      max_file_size_mb: 100,
      concurrent_simulations: 2,
    },
  },
  single: {
    name: 'Single',
    description: 'All core features',
    price_monthly: 5,
    billing_cycle: 'monthly',
    compute_hours_per_month: 10,
    token_cost: 1,
    stripe_price_id: 'price_single',
    features: {
      priority_queue: false,
      support_level: 'email',
      max_file_size_mb: 250,
      concurrent_simulations: 3,
    },
  },
  studio: {
    name: 'Studio',
    description: 'Priority compute',
    price_monthly: 49,
    billing_cycle: 'monthly',
    compute_hours_per_month: 100,
    token_cost: 0.8,
    stripe_price_id: null,
    features: {
      priority_queue: true,
      support_level: 'priority',
      max_file_size_mb: 1000,
      concurrent_simulations: 8,
    },
  },
};

function renderAt(path: string, element: React.ReactNode) {
  const router = createMemoryRouter(
    [
      { path: '/dashboard', element },
      { path: '/billing', element },
      { path: '/', element: <p>home</p> },
    ],
    { initialEntries: [path] },
  );
  return render(
    <AuthProvider>
      <RouterProvider router={router} />
    </AuthProvider>,
  );
}

/** The usage panel with its own usage state (on the dashboard the page holds it). */
function OwnUsagePanel() {
  return <UsagePanel usage={useUsage()} />;
}

let redirect: Mock<(url: string) => void>;
beforeEach(() => {
  redirect = vi.fn<(url: string) => void>();
  billingApi.browserNavigation.assign = redirect;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('usage panel', () => {
  it('shows the token plan usage, its warning colour and the low-token shortcut', async () => {
    fakeApi({
      'GET /api/user/subscription-info': () =>
        json(
          subscriptionInfo({
            tokens_used: 10,
            tokens_purchased: 12,
            tokens_available: 2,
            tokens_remaining: 2,
          }),
        ),
    });
    renderAt('/dashboard', <OwnUsagePanel />);
    expect(await screen.findByText('Computational Usage')).toBeTruthy();
    expect(await screen.findByText('Tokens Used')).toBeTruthy();
    expect(screen.getByTestId('usage-percent').textContent).toBe('83.3%');
    expect(screen.getByTestId('usage-percent').className).toContain('dash-level-approaching');
    expect(screen.getByText('Approaching Limit')).toBeTruthy();
    expect(screen.getByTestId('usage-counts').textContent).toBe('10 / 12 tokens');
    expect(screen.getByText('2 tokens remaining')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Buy More Tokens' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Upgrade Plan' })).toBeNull();
    expect(screen.getByRole('button', { name: 'View Billing Details' })).toBeTruthy();
  });

  it('shows hours in minutes below an hour, the period end, the red notice and Upgrade Plan', async () => {
    fakeApi({
      'GET /api/user/subscription-info': () =>
        json(
          subscriptionInfo({
            plan: 'single',
            current_period_end: '2031-05-17T00:00:00.000Z',
            compute_hours_used: 0.95,
            compute_hours_limit: 1,
            last_compute_time: '2031-05-01T10:00:00.000Z',
          }),
        ),
    });
    renderAt('/dashboard', <OwnUsagePanel />);
    expect(await screen.findByText('Compute Hours Used')).toBeTruthy();
    expect(screen.getByText(/Billing Period Ends/)).toBeTruthy();
    expect(screen.getByTestId('usage-counts').textContent).toBe('57 min / 1 hour');
    expect(screen.getByTestId('usage-percent').textContent).toBe('95.0%');
    expect(screen.getByTestId('usage-percent').className).toContain('dash-level-limit');
    expect(screen.getByText('Usage Limit Reached')).toBeTruthy();
    expect(screen.getByText(/Last computation/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upgrade Plan' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Buy More Tokens' })).toBeNull();
  });

  it("says 'Failed to fetch usage data' with Retry, and Retry loads it", async () => {
    let fail = true;
    fakeApi({
      'GET /api/user/subscription-info': () =>
        fail ? json({ error: 'x', message: 'x' }, 500) : json(subscriptionInfo()),
    });
    renderAt('/dashboard', <OwnUsagePanel />);
    expect(await screen.findByText('Failed to fetch usage data')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Tokens Used')).toBeTruthy();
    expect(screen.queryByText('Failed to fetch usage data')).toBeNull();
  });

  it("shows 'Syncing...' during a sync and reloads the usage after a successful one", async () => {
    let release = () => {};
    const api = fakeApi({
      'GET /api/user/subscription-info': () => json(subscriptionInfo()),
      'POST /api/user/sync-usage': () =>
        new Promise<Response>((r) => {
          release = () => r(json({ success: true, hours_added: 0.1 }));
        }),
    });
    renderAt('/dashboard', <OwnUsagePanel />);
    const sync = await screen.findByRole('button', { name: 'Sync from AWS' });
    const before = api.count('GET /api/user/subscription-info');
    fireEvent.click(sync);
    expect(await screen.findByRole('button', { name: 'Syncing...' })).toBeTruthy();
    await act(async () => release());
    await screen.findByRole('button', { name: 'Sync from AWS' });
    await waitFor(() => expect(api.count('GET /api/user/subscription-info')).toBe(before + 1));
  });

  it('only logs a failed sync: no message, the usage stays', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fakeApi({
      'GET /api/user/subscription-info': () => json(subscriptionInfo()),
      'POST /api/user/sync-usage': () => json({ success: false, error: 'Sync failed' }, 500),
    });
    renderAt('/dashboard', <OwnUsagePanel />);
    fireEvent.click(await screen.findByRole('button', { name: 'Sync from AWS' }));
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(await screen.findByRole('button', { name: 'Sync from AWS' })).toBeTruthy();
    expect(screen.queryByText('Sync failed')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Tokens Used')).toBeTruthy();
  });

  it('polls every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = fakeApi({ 'GET /api/user/subscription-info': () => json(subscriptionInfo()) });
    renderAt('/dashboard', <OwnUsagePanel />);
    await screen.findByText('Tokens Used');
    const n = api.count('GET /api/user/subscription-info');
    await act(async () => {
      vi.advanceTimersByTime(29_000);
    });
    expect(api.count('GET /api/user/subscription-info')).toBe(n);
    await act(async () => {
      vi.advanceTimersByTime(1_500);
    });
    expect(api.count('GET /api/user/subscription-info')).toBe(n + 1);
  });
});

describe('dashboard', () => {
  it('shows the overview badges, the token card, the empty Recent Activity and the debug panel', async () => {
    fakeApi({
      'GET /api/user/subscription-info': () => json(subscriptionInfo()),
      'GET /api/user/recent-jobs': () => json({ jobs: [] }),
    });
    renderAt('/dashboard', <DashboardPage />);
    expect(await screen.findByText('Welcome, Ada Lovelace')).toBeTruthy();
    expect((await screen.findByTestId('overview-plan')).textContent).toBe('Token');
    expect(screen.queryByTestId('overview-status')).toBeNull(); // hidden for the token plan
    expect(screen.getByText('Buy Tokens')).toBeTruthy();
    expect(await screen.findByText('No recent simulations')).toBeTruthy();
    expect(screen.getByText('Your simulation history will appear here')).toBeTruthy();
    expect(screen.getByText('AWS Batch Testing & Debug')).toBeTruthy();
  });

  it('colours the status badge: green when active, red otherwise; Manage Plan for subscriptions', async () => {
    fakeApi({
      'GET /api/user/subscription-info': () =>
        json(subscriptionInfo({ plan: 'single', status: 'past_due', compute_hours_limit: 10 })),
      'GET /api/user/recent-jobs': () => json({ jobs: [] }),
    });
    renderAt('/dashboard', <DashboardPage />);
    const status = await screen.findByTestId('overview-status');
    expect(status.textContent).toBe('Past Due');
    expect(status.className).toContain('dash-badge-bad');
    expect(screen.getByTestId('overview-plan').textContent).toBe('Single');
    expect(screen.getByRole('button', { name: 'Buy Extra Tokens' })).toBeTruthy();
  });

  it("banners 'Failed to load subscription information' on a non-OK answer", async () => {
    fakeApi({
      'GET /api/user/subscription-info': () => json({ error: 'x', message: 'x' }, 500),
      'GET /api/user/recent-jobs': () => json({ jobs: [] }),
    });
    renderAt('/dashboard', <DashboardPage />);
    expect(await screen.findByText('Failed to load subscription information')).toBeTruthy();
  });

  it("banners 'Error loading subscription data' when the call throws", async () => {
    fakeApi({
      'GET /api/user/subscription-info': () => {
        throw new TypeError('offline');
      },
      'GET /api/user/recent-jobs': () => json({ jobs: [] }),
    });
    renderAt('/dashboard', <DashboardPage />);
    expect(await screen.findByText('Error loading subscription data')).toBeTruthy();
  });

  it('loads the subscription info once for the page and its usage panel, and polls it once', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = fakeApi({
      'GET /api/user/subscription-info': () => json(subscriptionInfo({ tokens_available: 7 })),
      'GET /api/user/recent-jobs': () => json({ jobs: [] }),
    });
    renderAt('/dashboard', <DashboardPage />);
    expect(await screen.findByText('Tokens Used')).toBeTruthy();
    expect(await screen.findByText(/7 tokens available/)).toBeTruthy();
    expect(api.count('GET /api/user/subscription-info')).toBe(1);
    await act(async () => {
      vi.advanceTimersByTime(30_500);
    });
    expect(api.count('GET /api/user/subscription-info')).toBe(2);
  });

  it('shows both the page banner and the panel failure from one failed load; a retry clears only the panel', async () => {
    let fail = true;
    const api = fakeApi({
      'GET /api/user/subscription-info': () =>
        fail ? json({ error: 'x', message: 'x' }, 500) : json(subscriptionInfo()),
      'GET /api/user/recent-jobs': () => json({ jobs: [] }),
    });
    renderAt('/dashboard', <DashboardPage />);
    expect(await screen.findByText('Failed to load subscription information')).toBeTruthy();
    expect(await screen.findByText('Failed to fetch usage data')).toBeTruthy();
    expect(api.count('GET /api/user/subscription-info')).toBe(1);
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Tokens Used')).toBeTruthy();
    // The retried load reaches the page too (its cards), while the page's banner stays as it was.
    expect(await screen.findByText(/12 tokens available/)).toBeTruthy();
    expect(screen.getByText('Failed to load subscription information')).toBeTruthy();
  });

  it('lists recent jobs with status, time and a link into the simulator', async () => {
    fakeApi({
      'GET /api/user/subscription-info': () => json(subscriptionInfo()),
      'GET /api/user/recent-jobs': () =>
        json({
          jobs: [
            {
              id: 'job-1',
              kind: 'analysis',
              analysis_type: 'em',
              status: 'completed',
              message: 'Done',
              queued_at: '2031-01-01T10:00:00.000Z',
              started_at: '2031-01-01T10:00:01.000Z',
              finished_at: '2031-01-01T10:00:31.000Z',
              compute_seconds: 30,
              cost_tokens: 0.01,
              cost_hours: 0,
            },
          ],
        }),
    });
    renderAt('/dashboard', <DashboardPage />);
    const row = await screen.findByTestId('recent-job');
    expect(row.textContent).toContain('Electromagnetic analysis');
    expect(row.textContent).toContain('completed');
    expect(row.textContent).toContain('0.5 min compute');
    expect(row.querySelector('a')?.getAttribute('href')).toBe('/environment?job=job-1');
  });
});

describe('debug panel', () => {
  it("alerts 'Please enter a task ARN or task ID' on an empty input and makes no call", async () => {
    const api = fakeApi({});
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    render(<DebugPanel />);
    fireEvent.change(screen.getByLabelText('Test Specific Job'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test Job' }));
    expect(alert).toHaveBeenCalledWith('Please enter a task ARN or task ID');
    expect(api.count('POST /api/admin/test-ecs-task')).toBe(0);
  });

  it("lists recent jobs with N/A times and 'Test This Job' fills the input", async () => {
    fakeApi({
      'GET /api/admin/list-recent-ecs-tasks': () =>
        json({
          success: true,
          tasks: [
            {
              taskArn: 'arn:fieldline:compute:local:task/0b4f0c1e-0000-4000-8000-000000000001',
              taskDefinitionArn: 'arn:fieldline:compute:local:task-definition/fieldline-analysis-em:1',
              lastStatus: 'PENDING',
              createdAt: '2031-01-01T10:00:00.000Z',
              startedAt: null,
              stoppedAt: null,
              cpu: '1024',
              memory: '8192',
            },
          ],
        }),
    });
    render(<DebugPanel />);
    fireEvent.click(screen.getByRole('button', { name: 'List Recent Jobs' }));
    const row = await screen.findByTestId('debug-task');
    expect(row.textContent).toContain('fieldline-analysis-em');
    expect(row.textContent).toContain('0b4f0c1e-0000-4000-8000-000000000001');
    expect(row.textContent).toContain('Started: N/A');
    expect(row.textContent).toContain('Stopped: N/A');
    fireEvent.click(screen.getByRole('button', { name: 'Test This Job' }));
    expect((screen.getByLabelText('Test Specific Job') as HTMLInputElement).value).toBe(
      '0b4f0c1e-0000-4000-8000-000000000001',
    );
  });

  it('shows the database fields and the raw data; network failures say so', async () => {
    let offline = false;
    fakeApi({
      'GET /api/admin/debug-all-data': () => {
        if (offline) throw new TypeError('offline');
        return json({ success: true, table_exists: true, user_logs_count: 3, all_logs_count: 3 });
      },
      'GET /api/admin/list-recent-ecs-tasks': () => {
        throw new TypeError('offline');
      },
    });
    render(<DebugPanel />);
    fireEvent.click(screen.getByRole('button', { name: 'Debug Database' }));
    const result = await screen.findByTestId('debug-result');
    expect(result.textContent).toContain('Table exists');
    expect(result.textContent).toContain('Your simulation logs3');
    expect(screen.getByText('Raw data')).toBeTruthy();
    offline = true;
    fireEvent.click(screen.getByRole('button', { name: 'Debug Database' }));
    expect(await screen.findByText('Network error')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'List Recent Jobs' }));
    expect(await screen.findByText('Network error listing ECS tasks')).toBeTruthy();
  });

  it("shows 'Failed to list ECS tasks' or the server's error", async () => {
    let body: unknown = { success: false };
    fakeApi({ 'GET /api/admin/list-recent-ecs-tasks': () => json(body, 500) });
    render(<DebugPanel />);
    fireEvent.click(screen.getByRole('button', { name: 'List Recent Jobs' }));
    expect(await screen.findByText('Failed to list ECS tasks')).toBeTruthy();
    body = { success: false, error: 'Queue backend unreachable' };
    fireEvent.click(screen.getByRole('button', { name: 'List Recent Jobs' }));
    expect(await screen.findByText('Queue backend unreachable')).toBeTruthy();
  });
});

describe('billing page', () => {
  const billingApiRoutes = (extra = {}) =>
    fakeApi({
      'GET /api/plans': () => json(plans),
      'GET /api/user/subscription-info': () => json(subscriptionInfo()),
      ...extra,
    });

  it('lists monthly plans only, with every field, and the current status', async () => {
    const api = billingApiRoutes();
    renderAt('/billing', <BillingPage />);
    expect(await screen.findByText('Billing & Pricing')).toBeTruthy();
    const single = await screen.findByTestId('plan-single');
    expect(screen.queryByTestId('plan-token')).toBeNull();
    for (const text of [
      'Single',
      'All core features',
      '$5',
      '/ month',
      '10 compute hours per month',
      'Token overage: $1 per compute-hour',
      'Standard compute queue',
      'Email support',
      'Max file size: 250 MB',
      '3 concurrent simulations',
    ]) {
      expect(single.textContent).toContain(text);
    }
    const studio = screen.getByTestId('plan-studio');
    expect(studio.textContent).toContain('Priority compute queue');
    expect(studio.textContent).toContain('Token overage: $0.80 per compute-hour');
    expect((await screen.findByTestId('status-Plan')).textContent).toBe('Token');
    expect(screen.getByTestId('status-Available Tokens').textContent).toBe('12');
    // The billing page sends subscription-info without explicit credentials (spec 000 §7).
    expect(
      api.calls.find((c) => c.key === 'GET /api/user/subscription-info')?.init?.credentials,
    ).toBeUndefined();
  });

  it('shows N/A when the status is unknown', async () => {
    fakeApi({
      'GET /api/plans': () => json(plans),
      'GET /api/user/subscription-info': () => json({ error: 'x', message: 'x' }, 500),
    });
    renderAt('/billing', <BillingPage />);
    expect(await screen.findByText('Failed to load subscription information')).toBeTruthy();
    expect(screen.getByTestId('status-Plan').textContent).toBe('N/A');
    expect(screen.getByTestId('status-Status').textContent).toBe('N/A');
    expect(screen.getByTestId('status-Available Tokens').textContent).toBe('N/A');
  });

  it("says 'Missing priceId' and makes no call for a plan without a price", async () => {
    const api = billingApiRoutes();
    renderAt('/billing', <BillingPage />);
    const studio = await screen.findByTestId('plan-studio');
    fireEvent.click(studio.querySelector('button') as HTMLButtonElement);
    expect(await screen.findByText('Missing priceId')).toBeTruthy();
    expect(api.count('POST /api/create-checkout-session')).toBe(0);
  });

  it("subscribes: 'Processing...' while busy, then the browser goes to checkoutUrl", async () => {
    let release = () => {};
    const api = billingApiRoutes({
      'POST /api/create-checkout-session': () =>
        new Promise<Response>((r) => {
          release = () => r(json({ checkoutUrl: 'http://localhost/#/checkout/cs_1', sessionId: 'cs_1' }));
        }),
    });
    renderAt('/billing', <BillingPage />);
    const single = await screen.findByTestId('plan-single');
    fireEvent.click(single.querySelector('button') as HTMLButtonElement);
    expect(await screen.findByRole('button', { name: 'Processing...' })).toBeTruthy();
    await act(async () => release());
    expect(api.bodyOf('POST /api/create-checkout-session')).toEqual({ priceId: 'price_single' });
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('http://localhost/#/checkout/cs_1'));
  });

  it('goes to the hosted checkout page built from the session id when only sessionId comes back', async () => {
    billingApiRoutes({ 'POST /api/create-checkout-session': () => json({ sessionId: 'cs_test_1' }) });
    renderAt('/billing', <BillingPage />);
    fireEvent.click((await screen.findByTestId('plan-single')).querySelector('button') as HTMLButtonElement);
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'));
  });

  it.each([
    [() => json({}), 'No checkout URL received from server'],
    [
      () => json({ error: 'already_subscribed', message: 'You are already subscribed' }, 409),
      'You are already subscribed',
    ],
    [() => json({}, 500), 'Failed to create checkout session'],
    [
      () => {
        throw new TypeError('offline');
      },
      'Network error occurred',
    ],
  ])('shows the checkout error %#', async (answer, message) => {
    billingApiRoutes({ 'POST /api/create-checkout-session': answer });
    renderAt('/billing', <BillingPage />);
    fireEvent.click((await screen.findByTestId('plan-single')).querySelector('button') as HTMLButtonElement);
    expect(await screen.findByText(message)).toBeTruthy();
    expect(redirect).not.toHaveBeenCalled();
  });

  it("offers 'N Tokens - $N' with 10 preselected and redirects to checkout_url", async () => {
    const api = billingApiRoutes({
      'POST /api/purchase-tokens': () =>
        json({ checkout_url: 'http://localhost/#/checkout/cs_2', session_id: 'cs_2' }),
    });
    renderAt('/billing', <BillingPage />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Buy Tokens' }));
    const select = screen.getByLabelText('Quantity') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual([
      '5 Tokens - $5',
      '10 Tokens - $10',
      '25 Tokens - $25',
      '50 Tokens - $50',
      '75 Tokens - $75',
      '100 Tokens - $100',
      '150 Tokens - $150',
      '200 Tokens - $200',
      '300 Tokens - $300',
      '500 Tokens - $500',
    ]);
    expect(select.value).toBe('10');
    fireEvent.change(select, { target: { value: '25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Purchase Tokens' }));
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('http://localhost/#/checkout/cs_2'));
    expect(api.bodyOf('POST /api/purchase-tokens')).toEqual({ quantity: 25 });
  });

  it.each([
    [
      () => json({ error: 'invalid_request', message: 'Token quantity must be one of 5, 10' }, 400),
      'Token quantity must be one of 5, 10',
    ],
    [() => json({}, 500), 'Failed to initiate token purchase'],
    [
      () => {
        throw new TypeError('offline');
      },
      'Network error occurred',
    ],
  ])('shows the token purchase error %#', async (answer, message) => {
    billingApiRoutes({ 'POST /api/purchase-tokens': answer });
    renderAt('/billing', <BillingPage />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Buy Tokens' }));
    fireEvent.click(screen.getByRole('button', { name: 'Purchase Tokens' }));
    expect(await screen.findByText(message)).toBeTruthy();
  });
});
