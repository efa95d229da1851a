import { ANALYSIS_TYPES } from '@fieldline/contracts';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../src/auth/index.ts';
import { DebugPanel } from '../src/dashboard/debug/DebugPanel.tsx';
import { jobTitle } from '../src/dashboard/overview/RecentActivity.tsx';
import { DashboardPage } from '../src/pages/DashboardPage.tsx';
import { LandingPage, TAGLINE } from '../src/pages/LandingPage.tsx';
import { fakeApi, json, signedInUser, subscriptionInfo } from './billing/fake-api.ts';

/** Spec 000 §2: the landing page's buttons by auth state, the dashboard cards' targets, the debug results. */

function renderAt(path: string, element: React.ReactNode) {
  const here = (name: string) => <p>{name}</p>;
  const router = createMemoryRouter(
    [
      { path: '/', element: path === '/' ? element : here('home') },
      { path: '/dashboard', element: path === '/dashboard' ? element : here('dashboard') },
      { path: '/billing', element: here('billing') },
      { path: '/environment', element: here('environment') },
      { path: '/docs', element: here('docs') },
      { path: '/support', element: here('support') },
      { path: '/userdatabase/Login', element: here('login') },
      { path: '/userdatabase/Register', element: here('register') },
    ],
    { initialEntries: [path] },
  );
  render(
    <AuthProvider>
      <RouterProvider router={router} />
    </AuthProvider>,
  );
  return router;
}

const where = (router: ReturnType<typeof renderAt>) =>
  `${router.state.location.pathname}${router.state.location.search}`;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('landing page', () => {
  const signedOut = { 'GET /api/auth/check': () => json({ authenticated: false, user: null }) };

  it('signed out: Log In and Sign Up; Get Started and Create Account register; Subscribe registers with plan=single', async () => {
    fakeApi(signedOut);
    const cases: [string, string][] = [
      ['Log In', '/userdatabase/Login'],
      ['Sign Up', '/userdatabase/Register'],
      ['Get Started', '/userdatabase/Register'],
      ['Create Account', '/userdatabase/Register'],
      ['Subscribe for $5/month', '/userdatabase/Register?plan=single'],
      ['Open Viewer', '/environment'],
    ];
    for (const [label, target] of cases) {
      const router = renderAt('/', <LandingPage />);
      expect(await screen.findByText(TAGLINE)).toBeTruthy();
      await screen.findByRole('button', { name: 'Sign Up' }); // the auth check has answered
      expect(screen.queryByRole('button', { name: 'Dashboard' })).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: label }));
      await waitFor(() => expect(where(router)).toBe(target));
      cleanup();
    }
  });

  it('signed in: the welcome line and Dashboard, Billing, Log Out; login/register clicks do nothing', async () => {
    fakeApi({});
    const router = renderAt('/', <LandingPage />);
    expect(await screen.findByText(`Welcome, ${signedInUser.name}`)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Log In' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign Up' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Log Out' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Get Started' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(where(router)).toBe('/');
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe for $5/month' }));
    await waitFor(() => expect(where(router)).toBe('/billing'));
  });

  it('the footer names all four physics, not only RF (qa29)', async () => {
    fakeApi(signedOut);
    renderAt('/', <LandingPage />);
    expect(await screen.findByText(TAGLINE)).toBeTruthy();
    const line = screen.getByText(/^Finite element simulation in the browser/).textContent ?? '';
    for (const physics of ['electromagnetic', 'thermal', 'vibration', 'structural'])
      expect(line).toContain(physics);
    expect(line).not.toContain('RF and electrical engineers');
  });

  it('signed in: Dashboard and Billing go there', async () => {
    fakeApi({});
    for (const [label, target] of [
      ['Dashboard', '/dashboard'],
      ['Billing', '/billing'],
    ] as const) {
      const router = renderAt('/', <LandingPage />);
      fireEvent.click(await screen.findByRole('button', { name: label }));
      await waitFor(() => expect(where(router)).toBe(target));
      cleanup();
    }
  });
});

describe('dashboard cards', () => {
  it('Launch Simulator opens /environment; View Tutorials /docs; Get Support /support', async () => {
    fakeApi({
      'GET /api/user/subscription-info': () => json(subscriptionInfo()),
      'GET /api/user/recent-jobs': () => json({ jobs: [] }),
    });
    for (const [label, target] of [
      ['Launch Simulator', '/environment'],
      ['View Tutorials', '/docs'],
      ['Get Support', '/support'],
      ['Buy More Tokens', '/billing'],
    ] as const) {
      const router = renderAt('/dashboard', <DashboardPage />);
      const [button] = await screen.findAllByRole('button', { name: label });
      if (!button) throw new Error(`no ${label} button`);
      fireEvent.click(button);
      await waitFor(() => expect(where(router)).toBe(target));
      cleanup();
    }
  });

  it('a usage refresh updates the tokens the dashboard shows outside the panel (spec 000 §4)', async () => {
    let available = 12;
    fakeApi({
      'GET /api/user/subscription-info': () =>
        json(subscriptionInfo({ tokens_available: available, tokens_remaining: available })),
      'GET /api/user/recent-jobs': () => json({ jobs: [] }),
    });
    renderAt('/dashboard', <DashboardPage />);
    expect(await screen.findByText(/12 tokens available\./)).toBeTruthy();
    available = 3;
    fireEvent.click(await screen.findByRole('button', { name: 'Refresh Usage' }));
    expect(await screen.findByText(/3 tokens available\./)).toBeTruthy();
  });
});

describe('Recent Activity titles', () => {
  it('names every analysis type (qa31: vibration runs were listed as bare "modal" and "harmonic")', () => {
    const title = (analysis_type: string, kind: 'analysis' | 'meshing' = 'analysis') =>
      jobTitle({ analysis_type, kind } as Parameters<typeof jobTitle>[0]);
    for (const type of ANALYSIS_TYPES) expect(title(type)).not.toBe(type);
    expect(title('modal')).toBe('Vibration: natural frequencies');
    expect(title('harmonic')).toBe('Vibration: harmonic response');
    expect(title('structural')).toBe('Structural analysis');
    expect(title('thermal')).toBe('Thermal analysis');
  });
});

describe('debug panel: compute connection', () => {
  it('shows the region, the queue name and the available queues, with the raw data', async () => {
    fakeApi({
      'GET /api/admin/debug-aws-connection': () =>
        json({
          success: true,
          aws_region: 'local',
          queue_name: 'standard',
          job_queues: [
            { jobQueueName: 'standard', state: 'ENABLED', status: 'VALID' },
            { jobQueueName: 'priority', state: 'ENABLED', status: 'VALID' },
          ],
        }),
    });
    render(<DebugPanel />);
    fireEvent.click(screen.getByRole('button', { name: 'Debug AWS Connection' }));
    const result = await screen.findByTestId('debug-result');
    expect(result.textContent).toContain('AWS regionlocal');
    expect(result.textContent).toContain('Queue namestandard');
    expect(result.textContent).toContain('Available queuesstandard (VALID), priority (VALID)');
    expect(result.textContent).toContain('"aws_region": "local"');
  });
});
