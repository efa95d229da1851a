import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Brand } from './Logo.tsx';

/** The centred card the login, register and forgot-password screens share. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card panel-card">
        <Link to="/" className="brand-link auth-brand" aria-label="Fieldline home">
          <Brand />
        </Link>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** A message box; success and error banners are announced to screen readers. */
export function Banner({ kind, children }: { kind: 'success' | 'error' | 'info'; children: ReactNode }) {
  return (
    <div className={`banner banner-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
