import { createHashRouter } from 'react-router';
import { GuestOnlyRoute, ProtectedRoute } from './auth/index.ts';
import { BillingPage } from './pages/BillingPage.tsx';
import { CheckoutPage } from './pages/CheckoutPage.tsx';
import { DashboardPage } from './pages/DashboardPage.tsx';
import { EnvironmentPage } from './pages/EnvironmentPage.tsx';
import { ForgotPasswordPage } from './pages/ForgotPasswordPage.tsx';
import { InfoPage } from './pages/InfoPage.tsx';
import { LandingPage } from './pages/LandingPage.tsx';
import { LoginPage } from './pages/LoginPage.tsx';
import { ManageBillingPage } from './pages/ManageBillingPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { RegisterPage } from './pages/RegisterPage.tsx';

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
  { path: '/blog', element: <InfoPage topic="blog" /> },
  { path: '/support', element: <InfoPage topic="support" /> },
  { path: '/privacy-policy', element: <InfoPage topic="privacy" /> },
  { path: '/terms-of-service', element: <InfoPage topic="terms" /> },
  { path: '/privacy', element: <InfoPage topic="privacy" /> },
  { path: '/terms', element: <InfoPage topic="terms" /> },
  { path: '*', element: <NotFoundPage /> },
]);
