import type { AuthUser } from '@fieldline/contracts';
import { createContext, type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { fetchAuthCheck, type LoginOutcome, postLogin, postLogout } from './auth-api.ts';
import { takeStartupAuthCheck } from './startup-check.ts';

/** Auth state of spec 000 §4: isAuthenticated, currentUser and a loading flag. */
export interface AuthState {
  isAuthenticated: boolean;
  currentUser: AuthUser | null;
  /** True until the start-up auth check has answered (whatever it answered). */
  loading: boolean;
  /** Logs in; on success the state holds the user. */
  login(email: string, password: string): Promise<LoginOutcome>;
  /** Logs out; the state is cleared even if the request fails. */
  logout(): Promise<void>;
  /** Asks the server again who is signed in (e.g. after a plan change). */
  refresh(): Promise<void>;
}

export const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [currentUser, setCurrentUser] = useState<AuthUser | null>(null);
  const [loading, setLoading] = useState(true);

  const refresh = useCallback(async () => {
    try {
      setCurrentUser(await fetchAuthCheck());
    } finally {
      setLoading(false);
    }
  }, []);

  // The start-up answer: the entry sent the request before React started (startup-check.ts).
  useEffect(() => {
    let live = true;
    void takeStartupAuthCheck().then((user) => {
      if (!live) return;
      setCurrentUser(user);
      setLoading(false);
    });
    return () => {
      live = false;
    };
  }, []);

  const login = useCallback(async (email: string, password: string) => {
    const outcome = await postLogin(email, password);
    if (outcome.success) setCurrentUser(outcome.user);
    return outcome;
  }, []);

  const logout = useCallback(async () => {
    try {
      await postLogout();
    } catch (err) {
      console.error('logout request failed', err);
    } finally {
      setCurrentUser(null);
    }
  }, []);

  const value = useMemo<AuthState>(
    () => ({ isAuthenticated: currentUser !== null, currentUser, loading, login, logout, refresh }),
    [currentUser, loading, login, logout, refresh],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
