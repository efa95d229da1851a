import { type ReactNode, useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Brand } from '../components/Logo.tsx';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { scrollToSection } from '../components/scroll.ts';
import { BlogContent } from './info/BlogContent.tsx';
import { DocsContent } from './info/DocsContent.tsx';
import { PrivacyContent } from './info/PrivacyContent.tsx';
import { SupportContent } from './info/SupportContent.tsx';
import { TermsContent } from './info/TermsContent.tsx';
import { ValidationContent } from './info/validation/ValidationContent.tsx';

export type InfoTopic = 'docs' | 'validation' | 'blog' | 'support' | 'privacy' | 'terms';

const PAGES: Record<InfoTopic, { title: string; content: () => ReactNode }> = {
  docs: { title: 'Documentation', content: DocsContent },
  validation: { title: 'Validation report', content: () => <ValidationContent /> },
  blog: { title: 'Blog', content: BlogContent },
  support: { title: 'Support', content: SupportContent },
  privacy: { title: 'Privacy Policy', content: PrivacyContent },
  terms: { title: 'Terms of Service', content: TermsContent },
};

/** Footer information pages; `?section=<id>` scrolls to a section (e.g. the Community anchor). */
export function InfoPage({ topic }: { topic: InfoTopic }) {
  const [params] = useSearchParams();
  const section = params.get('section');
  const { title, content: Content } = PAGES[topic];

  useEffect(() => {
    document.title = `${title} — Fieldline`;
    if (section) scrollToSection(section);
    else window.scrollTo(0, 0);
  }, [title, section]);

  return (
    <div className="info-layout">
      <header className="site-topbar">
        <div className="site-topbar-inner">
          <Link to="/" className="brand-link" aria-label="Fieldline home">
            <Brand />
          </Link>
          <nav className="site-topbar-actions" aria-label="Pages">
            <Link to="/docs">Docs</Link>
            <Link to="/support">Support</Link>
            <Link to="/">Back to Home</Link>
          </nav>
        </div>
      </header>
      <main className="page info-page">
        <h1>{title}</h1>
        <Content />
      </main>
      <SiteFooter />
    </div>
  );
}
