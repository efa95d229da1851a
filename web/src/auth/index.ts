/** Web auth for every page: the provider, the hook, the route guards and the form rules. */
export { AuthProvider, type AuthState } from './AuthProvider.tsx';
export {
  FORGOT_PASSWORD_PATH,
  GuestOnlyRoute,
  LOGIN_PATH,
  LoadingScreen,
  type LoginRedirectState,
  ProtectedRoute,
  REGISTER_PATH,
} from './guards.tsx';
export { useAuth } from './useAuth.ts';
export * from './validation.ts';
