import type { ComponentProps } from 'react';
import { flushSync } from 'react-dom';
import { RouterProvider } from 'react-router';

type Router = ComponentProps<typeof RouterProvider>['router'];

/** React Router's own signature for it: flushSync's result is not used. */
function flushNavigation(fn: () => unknown): undefined {
  flushSync(fn);
}

/**
 * The router, able to commit a navigation synchronously when it asks for `flushSync` (Logout
 * leaves the protected page before signing out; a navigation is otherwise a transition that a fast
 * sign-out can overtake, and the page's guard would then send the user to login).
 */
export function AppRouterProvider({ router }: { router: Router }) {
  return <RouterProvider router={router} flushSync={flushNavigation} />;
}
