import { WEB_ROUTES, webRouteFor } from '@fieldline/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
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

describe('a page that fails to load', () => {
  it("shows a reload page, not React Router's developer screen (qa29)", async () => {
    const failing = router.routes.find((r) => r.path === '/docs');
    expect(failing?.errorElement).toBeTruthy();
    const memory = createMemoryRouter(
      [
        {
          path: '/',
          element: <Throws />,
          errorElement: failing?.errorElement,
        },
      ],
      { initialEntries: ['/'] },
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<RouterProvider router={memory} />);
    expect(await screen.findByRole('heading', { name: 'This page could not be loaded' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.queryByText(/Hey developer/)).toBeNull();
    cleanup();
  });
});

function Throws(): never {
  throw new TypeError('Failed to fetch dynamically imported module: /assets/InfoPage-x.js');
}
