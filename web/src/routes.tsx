import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { createHashRouter } from 'react-router';
import { GuestOnlyRoute, LoadingScreen, ProtectedRoute } from './auth/index.ts';
import { LandingPage } from './pages/LandingPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';

/**
 * Pages other than the landing page are loaded on first visit (their own chunks), so the landing
 * page downloads only itself, the router and auth; the simulator (environment, charts) and the
 * dashboard/billing screens come with their routes. The 3D viewer is a separate page (viewer.html).
 */
function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>) {
  const Page = lazy(async () => ({ default: await load() }));
  return (props: P & { children?: ReactNode }) => (
    <Suspense fallback={<LoadingScreen />}>
      <Page {...props} />
    </Suspense>
  );
}

const EnvironmentPage = lazyPage(async () => (await import('./pages/EnvironmentPage.tsx')).EnvironmentPage);
const LoginPage = lazyPage(async () => (await import('./pages/LoginPage.tsx')).LoginPage);
const RegisterPage = lazyPage(async () => (await import('./pages/RegisterPage.tsx')).RegisterPage);
const ForgotPasswordPage = lazyPage(
  async () => (await import('./pages/ForgotPasswordPage.tsx')).ForgotPasswordPage,
);
const DashboardPage = lazyPage(async () => (await import('./pages/DashboardPage.tsx')).DashboardPage);
const BillingPage = lazyPage(async () => (await import('./pages/BillingPage.tsx')).BillingPage);
const CheckoutPage = lazyPage(async () => (await import('./pages/CheckoutPage.tsx')).CheckoutPage);
const ManageBillingPage = lazyPage(
  async () => (await import('./pages/ManageBillingPage.tsx')).ManageBillingPage,
);
const InfoPage = lazyPage(async () => (await import('./pages/InfoPage.tsx')).InfoPage);

/** Spec 000 §2 route table; hash-based history. Guards: guest-only and protected (web/src/auth). */
export const router = createHashRouter([
  { path: '/', element: <LandingPage /> },
  { path: '/environment', element: <EnvironmentPage /> },
  {
    path: '/userdatabase/Login',
    element: (
      <GuestOnlyRoute>
        <LoginPage />
      </GuestOnlyRoute>
    ),
  },
  {
    path: '/userdatabase/Register',
    element: (
      <GuestOnlyRoute>
        <RegisterPage />
      </GuestOnlyRoute>
    ),
  },
  {
    path: '/userdatabase/ForgotPassword',
    element: (
      <GuestOnlyRoute>
        <ForgotPasswordPage />
      </GuestOnlyRoute>
    ),
  },
  {
    path: '/dashboard',
    element: (
      <ProtectedRoute>
        <DashboardPage />
      </ProtectedRoute>
    ),
  },
  {
    path: '/billing',
    element: (
      <ProtectedRoute>
        <BillingPage />
      </ProtectedRoute>
    ),
  },
  // The built-in test-mode checkout and billing management (when Stripe is not configured).
  {
    path: '/checkout/:sessionId',
    element: (
      <ProtectedRoute>
        <CheckoutPage />
      </ProtectedRoute>
    ),
  },
  {
    path: '/billing/manage',
    element: (
      <ProtectedRoute>
        <ManageBillingPage />
      </ProtectedRoute>
    ),
  },
  { path: '/docs', element: <InfoPage topic="docs" /> },
  { path: '/docs/validation', element: <InfoPage topic="validation" /> },
  { path: '/blog', element: <InfoPage topic="blog" /> },
  { path: '/support', element: <InfoPage topic="support" /> },
  { path: '/privacy-policy', element: <InfoPage topic="privacy" /> },
  { path: '/terms-of-service', element: <InfoPage topic="terms" /> },
  { path: '/privacy', element: <InfoPage topic="privacy" /> },
  { path: '/terms', element: <InfoPage topic="terms" /> },
  { path: '*', element: <NotFoundPage /> },
]);
