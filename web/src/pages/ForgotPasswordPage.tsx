import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { LOGIN_PATH } from '../auth/index.ts';
import { AuthLayout, Banner } from '../components/AuthLayout.tsx';
import { usePageTitle } from '../components/page-title.ts';

export const SIMULATED_SEND_MS = 1000;

/** Spec 000 §2 password reset stub: a one-second simulated send; no request is made. */
export function ForgotPasswordPage() {
  usePageTitle('Forgot Password');
  const [email, setEmail] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setState('sending');
    timer.current = setTimeout(() => setState('sent'), SIMULATED_SEND_MS);
  };

  return (
    <AuthLayout title="Forgot Password">
      {state === 'sent' ? (
        <Banner kind="success">An email has been sent</Banner>
      ) : (
        <>
          <p className="muted">Enter the email address of your account.</p>
          <form onSubmit={onSubmit} className="form">
            <label htmlFor="forgot-email">Email</label>
            <input
              id="forgot-email"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
            />
            <button type="submit" className="primary" disabled={state === 'sending'}>
              {state === 'sending' ? 'Sending...' : 'Send Reset Link'}
            </button>
          </form>
        </>
      )}
      <div className="auth-links">
        <Link to={LOGIN_PATH}>Back to Login</Link>
        <Link to="/">Back to Home</Link>
      </div>
    </AuthLayout>
  );
}
