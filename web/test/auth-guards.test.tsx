import { act, cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider, GuestOnlyRoute, ProtectedRoute, useAuth } from '../src/auth/index.ts';

const user = {
  id: 'u1',
  name: 'Ada',
  email: 'ada@x.com',
  username: 'ada',
  plan: 'token',
  status: 'active',
  role: 'user',
};

/** fetch stand-in: answers the auth check with `authenticated`, after `release()` when deferred. */
function stubAuthCheck(authenticated: boolean) {
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/auth/check') {
      await gate;
      return new Response(JSON.stringify({ authenticated, user: authenticated ? user : null }), {
        status: 200,
      });
    }
    if (url === '/api/auth/logout') throw new TypeError('network down');
    if (url === '/api/auth/login') {
      return new Response(JSON.stringify({ success: true, user }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }
    return new Response('{}', { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { release, fetchMock };
}

function LoginProbe() {
  const auth = useAuth();
  return (
    <div>
      <p>login page</p>
      <button type="button" onClick={() => void auth.login('ada@x.com', 'pw')}>
        Log In
      </button>
    </div>
  );
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard',
        element: (
          <ProtectedRoute>
            <p>dashboard content</p>
          </ProtectedRoute>
        ),
      },
      {
        path: '/userdatabase/Login',
        element: (
          <GuestOnlyRoute>
            <LoginProbe />
          </GuestOnlyRoute>
        ),
      },
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

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('route guards', () => {
  it('show the centred Loading... spinner while the auth check is pending', async () => {
    const { release } = stubAuthCheck(true);
    renderAt('/dashboard');
    expect(screen.getByRole('status').textContent).toBe('Loading...');
    await act(async () => release());
    expect(await screen.findByText('dashboard content')).toBeTruthy();
  });

  it('protected: a guest goes to login, replacing the entry and keeping where to return', async () => {
    const { release } = stubAuthCheck(false);
    const router = renderAt('/dashboard?tab=usage');
    await act(async () => release());
    await screen.findByText(/login page/);
    expect(router.state.location.pathname).toBe('/userdatabase/Login');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(router.state.location.state).toEqual({
      from: { pathname: '/dashboard', search: '?tab=usage', hash: '' },
    });
  });

  it('guest-only: a signed-in visitor goes to /dashboard', async () => {
    const { release } = stubAuthCheck(true);
    const router = renderAt('/userdatabase/Login');
    await act(async () => release());
    await screen.findByText('dashboard content');
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('guest-only: signing in on the page stays; a new visit to a guest page while signed in goes on', async () => {
    // The CI race: login → /dashboard interrupted by a visit to login before the dashboard committed
    // leaves the same guard instance mounted; the new history entry must be judged afresh.
    const { release } = stubAuthCheck(false);
    const router = renderAt('/userdatabase/Login');
    await act(async () => release());
    await act(async () => screen.getByRole('button', { name: 'Log In' }).click());
    await act(async () => {});
    expect(screen.getByText('login page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/userdatabase/Login');
    await act(async () => router.navigate('/userdatabase/Login'));
    await screen.findByText('dashboard content');
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});

function Probe() {
  const auth = useAuth();
  return (
    <div>
      <p>{auth.loading ? 'loading' : auth.isAuthenticated ? `in as ${auth.currentUser?.name}` : 'out'}</p>
      <button type="button" onClick={() => void auth.logout()}>
        Log Out
      </button>
    </div>
  );
}

describe('AuthProvider', () => {
  it('treats a failing auth check as signed out and stops loading', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('boom', { status: 500 })),
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <AuthProvider>
        <Probe />
      </AuthProvider>,
    );
    expect(await screen.findByText('out')).toBeTruthy();
    // Spec 000 §8: auth check errors are logged.
    expect(logged).toHaveBeenCalledWith('auth check failed', 500);
  });

  it('treats a thrown auth check as signed out, logged', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('network down');
      }),
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <AuthProvider>
        <Probe />
      </AuthProvider>,
    );
    expect(await screen.findByText('out')).toBeTruthy();
    expect(logged).toHaveBeenCalledWith('auth check failed', expect.any(TypeError));
  });

  it('clears the state on logout even when the request fails', async () => {
    const { release } = stubAuthCheck(true);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <AuthProvider>
        <Probe />
      </AuthProvider>,
    );
    await act(async () => release());
    await screen.findByText('in as Ada');
    await act(async () => screen.getByRole('button').click());
    expect(await screen.findByText('out')).toBeTruthy();
  });
});
