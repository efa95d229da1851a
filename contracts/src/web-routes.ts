/**
 * The web app's pages (spec 000 §2). The router is hash-based (`/#/dashboard`); the server sends a
 * typed or shared path such as `/dashboard` to its hash route, so this list is the one both read
 * (web/src/routes.tsx is checked against it by a test). `:name` matches one path segment.
 */
export const WEB_ROUTES = [
  '/',
  '/environment',
  '/userdatabase/Login',
  '/userdatabase/Register',
  '/userdatabase/ForgotPassword',
  '/dashboard',
  '/billing',
  '/checkout/:sessionId',
  '/billing/manage',
  '/docs',
  '/docs/validation',
  '/blog',
  '/support',
  '/privacy-policy',
  '/terms-of-service',
  '/privacy',
  '/terms',
] as const;

export type WebRoute = (typeof WEB_ROUTES)[number];

/**
 * The hash route a typed path stands for (`/Dashboard/` → `/dashboard`, `/checkout/abc` →
 * `/checkout/abc`), or null when it is not a page of the app. Matching ignores case and a trailing
 * slash, as the router does.
 */
export function webRouteFor(pathname: string): string | null {
  const parts = pathname.replace(/\/+$/, '').split('/').slice(1);
  for (const route of WEB_ROUTES) {
    if (route === '/') continue;
    const pattern = route.split('/').slice(1);
    if (pattern.length !== parts.length) continue;
    const out: string[] = [];
    let ok = true;
    for (let i = 0; i < pattern.length; i++) {
      const want = pattern[i] as string;
      const got = parts[i] as string;
      if (want.startsWith(':')) {
        if (got.length === 0) ok = false;
        out.push(got);
      } else if (want.toLowerCase() === got.toLowerCase()) {
        out.push(want);
      } else {
        ok = false;
      }
      if (!ok) break;
    }
    if (ok) return `/${out.join('/')}`;
  }
  return null;
}
