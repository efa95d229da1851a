import { WEB_ROUTES, webRouteFor } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import { router } from '../src/routes.tsx';

describe('route table', () => {
  it('has every route of spec 000 §2', () => {
    const paths = router.routes.map((r) => r.path);
    for (const p of [
      '/',
      '/environment',
      '/userdatabase/Login',
      '/userdatabase/Register',
      '/userdatabase/ForgotPassword',
      '/dashboard',
      '/billing',
      '/docs',
      '/blog',
      '/support',
      '/privacy-policy',
      '/terms-of-service',
    ]) {
      expect(paths).toContain(p);
    }
  });

  it('is the list the server redirects typed paths from (contracts WEB_ROUTES)', () => {
    const paths = router.routes.map((r) => r.path).filter((p) => p !== '*');
    expect([...paths].sort()).toEqual([...WEB_ROUTES].sort());
  });
});

describe('webRouteFor', () => {
  it('maps a typed path to its route, ignoring case and a trailing slash', () => {
    expect(webRouteFor('/Dashboard/')).toBe('/dashboard');
    expect(webRouteFor('/userdatabase/forgotpassword')).toBe('/userdatabase/ForgotPassword');
    expect(webRouteFor('/checkout/cs_1')).toBe('/checkout/cs_1');
    expect(webRouteFor('/checkout/')).toBeNull();
    expect(webRouteFor('/nope')).toBeNull();
    expect(webRouteFor('/dashboard/extra')).toBeNull();
  });
});
