import './zod-config.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouterProvider } from './AppRouterProvider.tsx';
import { AuthProvider } from './auth/index.ts';
import { router } from './routes.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <AuthProvider>
      <AppRouterProvider router={router} />
    </AuthProvider>
  </StrictMode>,
);
