import { Link, useLocation, useNavigate } from 'react-router';
import { Brand } from './Logo.tsx';
import { scrollToSection } from './scroll.ts';

const SECTIONS = [
  ['how-it-works', 'How It Works'],
  ['features', 'Features'],
  ['pricing', 'Pricing'],
] as const;

/** Footer of the public pages (spec 000 §2): Quick Links with a Community anchor, Resources, Legal, copyright. */
/** What the product does, in one line: all four physics, not only EM (it said "for RF and electrical engineers"). */
export const FOOTER_TAGLINE =
  'Finite element simulation in the browser: electromagnetic, thermal, vibration and structural.';

export function SiteFooter() {
  const location = useLocation();
  const navigate = useNavigate();
  const goToSection = (id: string) => {
    if (location.pathname === '/') scrollToSection(id);
    else navigate('/', { state: { scrollTo: id } });
  };
  return (
    <footer className="site-footer">
      <div className="footer-grid">
        <div className="footer-brand">
          <Brand />
          <p className="muted">{FOOTER_TAGLINE}</p>
        </div>
        <nav aria-label="Quick Links">
          <h2>Quick Links</h2>
          <ul>
            <li>
              <Link to="/">Home</Link>
            </li>
            {SECTIONS.map(([id, label]) => (
              <li key={id}>
                <button type="button" className="link-button" onClick={() => goToSection(id)}>
                  {label}
                </button>
              </li>
            ))}
            <li>
              <Link to="/environment">Open Viewer</Link>
            </li>
            <li>
              <Link to="/support?section=community">Community</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Resources">
          <h2>Resources</h2>
          <ul>
            <li>
              <Link to="/docs">Documentation</Link>
            </li>
            <li>
              <Link to="/blog">Blog</Link>
            </li>
            <li>
              <Link to="/support">Support</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Legal">
          <h2>Legal</h2>
          <ul>
            <li>
              <Link to="/privacy-policy">Privacy Policy</Link>
            </li>
            <li>
              <Link to="/terms-of-service">Terms of Service</Link>
            </li>
          </ul>
        </nav>
      </div>
      <p className="copyright muted">© {new Date().getFullYear()} Fieldline. All rights reserved.</p>
    </footer>
  );
}
