import { useContext } from 'react';
import { AuthContext, type AuthState } from './AuthProvider.tsx';

/** The auth state; components must sit inside <AuthProvider>. */
export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth must be used inside <AuthProvider>');
  return state;
}
