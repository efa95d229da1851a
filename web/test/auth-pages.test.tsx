import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { postLogin } from '../src/auth/auth-api.ts';
import { AuthProvider, GuestOnlyRoute, type LoginRedirectState } from '../src/auth/index.ts';
import { LoginPage } from '../src/pages/LoginPage.tsx';
import { RegisterPage } from '../src/pages/RegisterPage.tsx';
import { fakeApi, json } from './billing/fake-api.ts';

/** Spec 000 §5/§7/§8 on the login and register screens: the messages and what the error bodies carry. */

const guest = { 'GET /api/auth/check': () => json({ authenticated: false, user: null }) };

function LoginProbe() {
  return <p>login page</p>;
}

function renderRegister() {
  const router = createMemoryRouter(
    [
      {
        path: '/userdatabase/Register',
        element: (
          <GuestOnlyRoute>
            <RegisterPage />
          </GuestOnlyRoute>
        ),
      },
      { path: '/userdatabase/Login', element: <LoginProbe /> },
      { path: '/', element: <p>home</p> },
    ],
    { initialEntries: ['/userdatabase/Register'] },
  );
  render(
    <AuthProvider>
      <RouterProvider router={router} />
    </AuthProvider>,
  );
  return router;
}

/** Fills a valid form and waits until the debounced email and username checks let it be sent. */
async function fillValidForm() {
  const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
  fireEvent.change(await screen.findByLabelText('Full Name'), { target: { value: 'Ada Lovelace' } });
  fireEvent.change(field('Email'), { target: { value: ' Ada@Example.COM ' } });
  fireEvent.change(field('Username'), { target: { value: 'ada' } });
  fireEvent.change(field('Password'), { target: { value: 'difference-engine' } });
  fireEvent.change(field('Confirm Password'), { target: { value: 'difference-engine' } });
  fireEvent.click(screen.getByRole('checkbox'));
  const submit = screen.getByRole('button', { name: 'Create Account' }) as HTMLButtonElement;
  await waitFor(() => expect(submit.disabled).toBe(false), { timeout: 3000 });
  return submit;
}

const checksPass = {
  'POST /api/validate-email': () => json({ is_valid: true, message: 'Email is valid' }),
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('register screen', () => {
  it("shows a refused registration's message and its username suggestions; a suggestion fills the field", async () => {
    let registrations = 0;
    fakeApi({
      ...guest,
      ...checksPass,
      'POST /api/auth/register': (init) => {
        const body = JSON.parse(String(init?.body)) as { validate_only?: boolean };
        if (body.validate_only)
          return json({ isValid: true, message: 'Username is available', suggestions: [] });
        registrations += 1;
        // Taken between the availability check and the submit.
        return json(
          {
            success: false,
            error: 'username_taken',
            message: 'Username is already taken',
            suggestions: ['ada_042', 'ada17'],
          },
          409,
        );
      },
    });
    renderRegister();
    fireEvent.click(await fillValidForm());

    expect(await screen.findByText('Username is already taken')).toBeTruthy();
    expect(registrations).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'ada17' }));
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('ada17');
  });

  it("says 'Registration failed' when the server refuses without a message", async () => {
    fakeApi({
      ...guest,
      ...checksPass,
      'POST /api/auth/register': (init) =>
        JSON.parse(String(init?.body)).validate_only
          ? json({ isValid: true, message: 'Username is available', suggestions: [] })
          : json({}, 500),
    });
    renderRegister();
    fireEvent.click(await fillValidForm());
    expect(await screen.findByText('Registration failed')).toBeTruthy();
  });

  it("says 'An error occurred during registration' when the request cannot be sent", async () => {
    fakeApi({
      ...guest,
      ...checksPass,
      'POST /api/auth/register': (init) => {
        if (JSON.parse(String(init?.body)).validate_only)
          return json({ isValid: true, message: 'Username is available', suggestions: [] });
        throw new TypeError('network down');
      },
    });
    renderRegister();
    fireEvent.click(await fillValidForm());
    expect(await screen.findByText('An error occurred during registration')).toBeTruthy();
  });

  it("says 'Could not validate email - server error' when the email check fails", async () => {
    fakeApi({ ...guest, 'POST /api/validate-email': () => json({}, 500) });
    renderRegister();
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@example.com' } });
    expect(
      await screen.findByText('Could not validate email - server error', {}, { timeout: 3000 }),
    ).toBeTruthy();
  });

  it('sends the email trimmed and lower-cased, then logs in; a failed login goes to login with the message', async () => {
    const api = fakeApi({
      ...guest,
      ...checksPass,
      'POST /api/auth/register': (init) =>
        JSON.parse(String(init?.body)).validate_only
          ? json({ isValid: true, message: 'Username is available', suggestions: [] })
          : json({ success: true, message: 'Registration successful' }, 201),
      'POST /api/auth/login': () => json({ success: false, message: 'Invalid email or password' }, 401),
    });
    const router = renderRegister();
    fireEvent.click(await fillValidForm());
    await waitFor(() => expect(router.state.location.pathname).toBe('/userdatabase/Login'));
    expect((router.state.location.state as LoginRedirectState).message).toBe(
      'Registration successful! Please log in.',
    );
    const sent = api.calls.find(
      (c) => c.key === 'POST /api/auth/register' && !String(c.init?.body).includes('validate_only'),
    );
    expect(JSON.parse(String(sent?.init?.body))).toMatchObject({
      email: 'ada@example.com',
      plan: 'token',
      acceptedTerms: true,
    });
  });
});

describe('email check debounce (spec 000 §9: 500 ms)', () => {
  it('asks the server once, 500 ms after the last keystroke, with the trimmed lower-cased address', async () => {
    const api = fakeApi({ ...guest, ...checksPass });
    renderRegister();
    const email = await screen.findByLabelText('Email');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fireEvent.change(email, { target: { value: 'Ada@' } });
      await act(async () => vi.advanceTimersByTime(300));
      fireEvent.change(email, { target: { value: ' Ada@Example.com' } });
      await act(async () => vi.advanceTimersByTime(499));
      expect(api.count('POST /api/validate-email')).toBe(0);
      await act(async () => vi.advanceTimersByTime(1));
      expect(api.count('POST /api/validate-email')).toBe(1);
      expect(api.bodyOf('POST /api/validate-email')).toEqual({ email: 'ada@example.com' });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('login messages', () => {
  it("uses the server's message, else 'Login failed'; a non-OK answer with success true still fails", async () => {
    fakeApi({
      'POST /api/auth/login': () => json({ success: false, message: 'Invalid email or password' }, 401),
    });
    expect(await postLogin('a@b.co', 'x')).toEqual({ success: false, message: 'Invalid email or password' });
    fakeApi({ 'POST /api/auth/login': () => json({}, 500) });
    expect(await postLogin('a@b.co', 'x')).toEqual({ success: false, message: 'Login failed' });
    fakeApi({ 'POST /api/auth/login': () => json({ success: true, user: { id: 'u' } }, 500) });
    expect(await postLogin('a@b.co', 'x')).toEqual({ success: false, message: 'Login failed' });
  });

  it("says 'Network error occurred' when the request cannot be sent", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('network down');
      }),
    );
    expect(await postLogin('a@b.co', 'x')).toEqual({ success: false, message: 'Network error occurred' });
  });

  it('shows the failure on the login page and a carried message as a success banner', async () => {
    fakeApi({ ...guest, 'POST /api/auth/login': () => json({}, 500) });
    const state: LoginRedirectState = { message: 'Registration successful! Please log in.' };
    const router = createMemoryRouter([{ path: '/userdatabase/Login', element: <LoginPage /> }], {
      initialEntries: [{ pathname: '/userdatabase/Login', state }],
    });
    render(
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>,
    );
    expect(await screen.findByText('Registration successful! Please log in.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'difference-engine' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Login failed')).toBeTruthy();
  });
});
