import { act, cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRouterProvider } from '../src/AppRouterProvider.tsx';
import { AuthProvider, ProtectedRoute } from '../src/auth/index.ts';
import { DashboardTopBar } from '../src/dashboard/overview/DashboardTopBar.tsx';

const user = {
  id: 'u1',
  name: 'Ada',
  email: 'ada@x.com',
  username: 'ada',
  plan: 'token',
  status: 'active',
  role: 'user',
};

/** The server answers the auth check (signed in) and the logout at once: the fastest sign-out. */
function stubServer() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/auth/check') return Response.json({ authenticated: true, user });
      if (url === '/api/auth/logout') return Response.json({ success: true });
      return new Response('{}', { status: 404 });
    }),
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Logout in the top bar', () => {
  it('lands on / (not on login) even when the sign-out answers before the navigation renders', async () => {
    stubServer();
    const router = createMemoryRouter(
      [
        { path: '/', element: <p>home page</p> },
        {
          path: '/dashboard',
          element: (
            <ProtectedRoute>
              <DashboardTopBar />
            </ProtectedRoute>
          ),
        },
        { path: '/userdatabase/Login', element: <p>login page</p> },
      ],
      { initialEntries: ['/dashboard'] },
    );
    render(
      <AuthProvider>
        <AppRouterProvider router={router} />
      </AuthProvider>,
    );
    const logout = await screen.findByRole('button', { name: 'Logout' });
    await act(async () => logout.click());
    await screen.findByText('home page');
    // Let every pending render and effect settle; a guard that saw the old page signed out would
    // have replaced / with the login page by now.
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByText('login page')).toBeNull();
  });
});
