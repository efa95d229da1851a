// First, for its side effect: the auth check goes out before React and the router are evaluated.
import './auth/start-auth-check.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouterProvider } from './AppRouterProvider.tsx';
import { AuthProvider } from './auth/index.ts';
import { router } from './routes.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
const app = createRoot(root);
// Rendered as a transition: React then yields to the browser every few milliseconds instead of
// building the first page in one long task (what total blocking time counts on a slow phone).
startTransition(() => {
  app.render(
    <StrictMode>
      <AuthProvider>
        <AppRouterProvider router={router} />
      </AuthProvider>
    </StrictMode>,
  );
});
