import { useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { LOGIN_PATH, REGISTER_PATH, useAuth } from '../auth/index.ts';
import { Brand, PRODUCT_NAME } from '../components/Logo.tsx';
import { usePageTitle } from '../components/page-title.ts';
import { SiteFooter } from '../components/SiteFooter.tsx';
import { scrollToSection } from '../components/scroll.ts';

export { PRODUCT_NAME };

export const TAGLINE = 'Upload your design. Run FEA in the browser. No installs. Results in minutes.';

const STEPS = [
  {
    title: 'Upload your CAD file',
    text: 'Drop a STEP, STL or OBJ file (or a ZIP of them). Fieldline reads the geometry, shows its units and size, and meshes it into tetrahedra on the server.',
  },
  {
    title: 'Select the simulation',
    text: 'Choose the physics: EM (electrostatics, quasi-statics, full-wave frequency and time domain), Thermal, Vibration or Structural.',
  },
  {
    title: 'Configure materials and boundaries',
    text: 'Assign library materials to bodies, and pick faces in the 3D view for voltages and ports, temperatures and convection, supports and loads.',
  },
  {
    title: 'Run and review the fields',
    text: 'The job runs on cloud compute while you watch its progress; then slice and colour the fields, read S-parameters and download the results.',
  },
];

/** [title, text, optional link] per feature card. */
const FEATURES: [string, string, { to: string; label: string }?][] = [
  [
    'No installs',
    'Everything runs in the browser: upload, configure, solve and view. Nothing to license, install or update on your machine.',
  ],
  [
    'Validated solvers',
    'Built on NGSolve and Netgen, and checked against reference problems with closed-form answers: capacitors, coax lines, waveguides and cavities; cantilevers, thick tubes and plates with holes; fins, wires and radiating plates; beam modes.',
    { to: '/docs/validation', label: 'See the validation report →' },
  ],
  [
    'Fast cloud compute',
    'Jobs run on server CPU/GPU backends with direct and iterative solvers, so a laptop is enough to solve models with millions of unknowns.',
  ],
  [
    'Secure by default',
    'Uploads are encrypted at rest and deleted automatically unless you save them. Your models and results are visible to you alone.',
  ],
  [
    'Modern UI',
    'A dark-theme interface with an interactive 3D viewer: rotate, slice, pick faces and read field values where you point.',
  ],
  [
    'Simple pricing',
    'Pay as you go with tokens, or one monthly plan. No seats, no annual contracts, no surprise invoices.',
  ],
] as const;

/** Each example opens the simulator with its physics chosen (#/environment?physics=…). */
const EXAMPLES = [
  [
    'EM Fields',
    'Capacitance of a connector, the E-field around a high-voltage insulator, S-parameters of a waveguide filter.',
    'em',
  ],
  [
    'Thermal',
    'Temperature of a bus bar or a PCB trace heated by its own current, with convection and radiation on its surfaces.',
    'thermal',
  ],
  [
    'Vibration',
    'Natural frequencies and mode shapes of a bracket or an antenna mast before it meets a shaker table.',
    'vibration',
  ],
  [
    'Structural',
    'Stress and deflection of a mounting plate or an enclosure under the loads it will carry.',
    'structural',
  ],
] as const;

/** Spec 000 §2 landing page. */
export function LandingPage() {
  usePageTitle();
  const { isAuthenticated, currentUser, logout } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();

  // The footer's Quick Links on other pages come here with the section to show.
  useEffect(() => {
    const target = (location.state as { scrollTo?: string } | null)?.scrollTo;
    if (target) scrollToSection(target);
  }, [location.state]);

  // Spec: login/register clicks do nothing when signed in; dashboard/billing clicks do nothing when not.
  const goLogin = () => {
    if (!isAuthenticated) navigate(LOGIN_PATH);
  };
  const goRegister = () => {
    if (!isAuthenticated) navigate(REGISTER_PATH);
  };
  const goDashboard = () => {
    if (isAuthenticated) navigate('/dashboard');
  };
  const goBilling = () => {
    if (isAuthenticated) navigate('/billing');
  };
  const subscribe = () => {
    if (isAuthenticated) navigate('/billing');
    else navigate(`${REGISTER_PATH}?plan=single`);
  };

  return (
    <div className="landing">
      <header className="site-topbar">
        <div className="site-topbar-inner">
          <a href="#/" className="brand-link" aria-label={`${PRODUCT_NAME} home`}>
            <Brand />
          </a>
          <nav className="site-topbar-nav" aria-label="Sections">
            <button type="button" className="link-button" onClick={() => scrollToSection('how-it-works')}>
              How It Works
            </button>
            <button type="button" className="link-button" onClick={() => scrollToSection('features')}>
              Features
            </button>
            <button type="button" className="link-button" onClick={() => scrollToSection('pricing')}>
              Pricing
            </button>
          </nav>
          <div className="site-topbar-actions">
            {isAuthenticated ? (
              <>
                <span className="welcome hide-sm">Welcome, {currentUser?.name}</span>
                <button type="button" onClick={goDashboard}>
                  Dashboard
                </button>
                <button type="button" onClick={goBilling}>
                  Billing
                </button>
                <button type="button" onClick={() => void logout()}>
                  Log Out
                </button>
              </>
            ) : (
              <>
                <button type="button" className="hide-sm" onClick={goLogin}>
                  Log In
                </button>
                <button type="button" className="primary" onClick={goRegister}>
                  Sign Up
                </button>
              </>
            )}
          </div>
        </div>
      </header>

      <main>
        <section className="hero" aria-labelledby="hero-title">
          <div className="hero-text">
            <h1 id="hero-title">
              {PRODUCT_NAME} <span className="beta-badge">Open Beta</span>
            </h1>
            <p className="tagline">{TAGLINE}</p>
            <div className="button-row">
              <button type="button" className="primary large" onClick={goRegister}>
                Get Started
              </button>
              <button type="button" className="large" onClick={() => scrollToSection('how-it-works')}>
                Learn How It Works
              </button>
            </div>
            <ul className="hero-points muted">
              <li>Uploads encrypted and auto-deleted unless you save them</li>
              <li>Solvers benchmarked against reference problems</li>
            </ul>
          </div>
          <aside className="panel-card quick-start" aria-labelledby="quick-start-title">
            <h2 id="quick-start-title">Upload &amp; Run</h2>
            <p>
              Drag and drop a STEP, STL or OBJ file, choose the physics, and visualize the fields in your
              browser. The viewer works without an account; sign up to run analyses.
            </p>
            <div className="button-row">
              <button type="button" className="primary" onClick={() => navigate('/environment')}>
                Open Viewer
              </button>
              <button type="button" onClick={goRegister}>
                Create Account
              </button>
            </div>
          </aside>
        </section>

        <section id="how-it-works" className="section" aria-labelledby="how-title">
          <h2 id="how-title">How It Works</h2>
          <ol className="steps">
            {STEPS.map((step, i) => (
              <li key={step.title} className="panel-card step">
                <span className="step-number" aria-hidden="true">
                  {i + 1}
                </span>
                <h3>{step.title}</h3>
                <p className="muted">{step.text}</p>
                {i === 1 && (
                  <p className="step-links">
                    {EXAMPLES.map(([title, , physics]) => (
                      <button
                        key={physics}
                        type="button"
                        className="link"
                        onClick={() => navigate(`/environment?physics=${physics}`)}
                      >
                        {title}
                      </button>
                    ))}
                  </p>
                )}
              </li>
            ))}
          </ol>
        </section>

        <section id="features" className="section" aria-labelledby="features-title">
          <h2 id="features-title">Features</h2>
          <div className="grid-3">
            {FEATURES.map(([title, text, link]) => (
              <article key={title} className="panel-card">
                <h3>{title}</h3>
                <p className="muted">{text}</p>
                {link && (
                  <Link to={link.to} data-testid="validation-link">
                    {link.label}
                  </Link>
                )}
              </article>
            ))}
          </div>
        </section>

        <section id="pricing" className="section" aria-labelledby="pricing-title">
          <h2 id="pricing-title">Pricing</h2>
          <div className="pricing">
            <article className="panel-card price-card">
              <h3>Single</h3>
              <p className="price">
                <span className="amount">$5</span>
                <span className="muted">/month</span>
              </p>
              <p className="muted">Cancel anytime.</p>
              <ul className="checklist">
                <li>All core features</li>
                <li>Standard compute queue</li>
                <li>Email support</li>
              </ul>
              <button type="button" className="primary large" onClick={subscribe}>
                Subscribe for $5/month
              </button>
            </article>
            <p className="muted pricing-note">
              Prefer to pay per run? Every account starts on the pay-as-you-go token plan: buy tokens when you
              need compute, with no subscription.
            </p>
          </div>
        </section>

        <section id="examples" className="section" aria-labelledby="examples-title">
          <h2 id="examples-title">Example Apps</h2>
          <div className="grid-4">
            {EXAMPLES.map(([title, text, physics]) => (
              <article key={title} className="panel-card">
                <h3>{title}</h3>
                <p className="muted">{text}</p>
                <p className="tag tag-ok">Available now</p>
                <button
                  type="button"
                  className="link"
                  data-testid={`example-${physics}`}
                  onClick={() => navigate(`/environment?physics=${physics}`)}
                >
                  Open in the simulator →
                </button>
              </article>
            ))}
          </div>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
