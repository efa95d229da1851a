import { AUTH_MESSAGES } from '@fieldline/contracts';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { FORGOT_PASSWORD_PATH, type LoginRedirectState, REGISTER_PATH, useAuth } from '../auth/index.ts';
import { AuthLayout, Banner } from '../components/AuthLayout.tsx';
import { usePageTitle } from '../components/page-title.ts';

/** Spec 000 §2 login screen: returns to the page that sent the user here, else /dashboard. */
export function LoginPage() {
  usePageTitle('Log In');
  const { login } = useAuth();
  const navigate = useNavigate();
  const state = (useLocation().state ?? {}) as LoginRedirectState;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const outcome = await login(email.trim().toLowerCase(), password);
      if (outcome.success) {
        const from = state.from;
        navigate(from ? `${from.pathname}${from.search ?? ''}${from.hash ?? ''}` : '/dashboard', {
          replace: true,
        });
        return;
      }
      setError(outcome.message);
    } catch {
      setError(AUTH_MESSAGES.loginError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Log In">
      {state.message && <Banner kind="success">{state.message}</Banner>}
      {error && <Banner kind="error">{error}</Banner>}
      <form onSubmit={onSubmit} className="form" noValidate>
        <label htmlFor="login-email">Email</label>
        <input
          id="login-email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
        <label htmlFor="login-password">Password</label>
        <input
          id="login-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Logging in...' : 'Log In'}
        </button>
      </form>
      <div className="auth-links">
        <Link to={FORGOT_PASSWORD_PATH}>Forgot Password?</Link>
        <span>
          No account yet? <Link to={REGISTER_PATH}>Register</Link>
        </span>
        <Link to="/">Back to Home</Link>
      </div>
    </AuthLayout>
  );
}
