import { type ReactNode, useDeferredValue, useRef } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from './useAuth.ts';

export const LOGIN_PATH = '/userdatabase/Login';
export const REGISTER_PATH = '/userdatabase/Register';
export const FORGOT_PASSWORD_PATH = '/userdatabase/ForgotPassword';

/** Where a protected page sends a guest; `from` is the location to return to after login. */
export interface LoginRedirectState {
  from?: { pathname: string; search?: string; hash?: string };
  /** A message shown as a success banner on the login page. */
  message?: string;
}

/** The centred spinner with "Loading..." that both guards show while the auth check is pending. */
export function LoadingScreen() {
  return (
    <div className="loading-screen" role="status" aria-live="polite">
      <div className="loading-spinner" aria-hidden="true" />
      <p>Loading...</p>
    </div>
  );
}

/**
 * The auth check's pending flag as the guards read it: when the answer arrives, the page behind the
 * guard is rendered as a deferred (interruptible) update, in slices that leave the main thread free,
 * instead of one long task; the loading screen stays up until that render is done.
 */
function useAuthPending(): boolean {
  return useDeferredValue(useAuth().loading);
}

/**
 * Pages for guests only (login, register, forgot password): a visitor who is already signed in when
 * the page opens goes to /dashboard. Signing in *on* the page is left to the page, which sends the
 * user on (login: to the page they came from; register: to /), so the guard does not race it.
 */
export function GuestOnlyRoute({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  const loading = useAuthPending();
  const { key } = useLocation();
  // Keyed by the history entry, not the mount: when a navigation away (login → /dashboard) is
  // interrupted by another one back to a guest page before it commits, React keeps this instance,
  // and a per-mount flag would still say "arrived as a guest" for a signed-in visitor.
  const arrival = useRef<{ key: string; signedIn: boolean } | null>(null);
  if (!loading && arrival.current?.key !== key) arrival.current = { key, signedIn: isAuthenticated };
  if (loading) return <LoadingScreen />;
  if (arrival.current?.signedIn) return <Navigate to="/dashboard" replace />;
  return children;
}

/** Pages for signed-in users: a guest goes to login (history entry replaced), then back here. */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  const loading = useAuthPending();
  const location = useLocation();
  if (loading) return <LoadingScreen />;
  if (!isAuthenticated) {
    const state: LoginRedirectState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to={LOGIN_PATH} replace state={state} />;
  }
  return children;
}
