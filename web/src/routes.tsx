import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { createHashRouter, type RouteObject } from 'react-router';
import { GuestOnlyRoute, LoadingScreen, ProtectedRoute } from './auth/index.ts';
import { LandingPage } from './pages/LandingPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { RouteErrorPage } from './pages/RouteErrorPage.tsx';
import { reloadOnceOnFailedChunk } from './stale-chunk.ts';

/**
 * Pages other than the landing page are loaded on first visit (their own chunks), so the landing
 * page downloads only itself, the router and auth; the simulator (environment, charts) and the
 * dashboard/billing screens come with their routes. The 3D viewer is a separate page (viewer.html).
 */
function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const loadOrReload = reloadOnceOnFailedChunk(load);
  const preload = () => {
    loading ??= loadOrReload().then((component) => ({ default: component }));
    return loading;
  };
  const Page = lazy(preload);
  return Object.assign(
    (props: P & { children?: ReactNode }) => (
      <Suspense fallback={<LoadingScreen />}>
        <Page {...props} />
      </Suspense>
    ),
    { preload },
  );
}

type Guard = ComponentType<{ children: ReactNode }>;
type PreloadablePage = ComponentType & { preload(): unknown };

/**
 * A page behind an auth guard. Its chunk is requested on the first render, while the guard still
 * waits for the auth check (it renders nothing of the page until then), so the two round-trips
 * overlap. `preload` only starts (once) an import, which is safe to do from render.
 */
function Guarded({ guard: GuardComponent, page: Page }: { guard: Guard; page: PreloadablePage }) {
  void Page.preload();
  return (
    <GuardComponent>
      <Page />
    </GuardComponent>
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
export const routes: RouteObject[] = [
  { path: '/', element: <LandingPage /> },
  { path: '/environment', element: <EnvironmentPage /> },
  {
    path: '/userdatabase/Login',
    element: <Guarded guard={GuestOnlyRoute} page={LoginPage} />,
  },
  {
    path: '/userdatabase/Register',
    element: <Guarded guard={GuestOnlyRoute} page={RegisterPage} />,
  },
  {
    path: '/userdatabase/ForgotPassword',
    element: <Guarded guard={GuestOnlyRoute} page={ForgotPasswordPage} />,
  },
  {
    path: '/dashboard',
    element: <Guarded guard={ProtectedRoute} page={DashboardPage} />,
  },
  {
    path: '/billing',
    element: <Guarded guard={ProtectedRoute} page={BillingPage} />,
  },
  // The built-in test-mode checkout and billing management (when Stripe is not configured).
  {
    path: '/checkout/:sessionId',
    element: <Guarded guard={ProtectedRoute} page={CheckoutPage} />,
  },
  {
    path: '/billing/manage',
    element: <Guarded guard={ProtectedRoute} page={ManageBillingPage} />,
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
];

/** Every route shows RouteErrorPage when its page fails to load or render. */
export const router = createHashRouter(routes.map((r) => ({ ...r, errorElement: <RouteErrorPage /> })));
