import { Link } from 'react-router';

export const PRODUCT_NAME = 'Fieldline';

/** Spec 000 §2 landing page (skeleton; the accounts issue completes it). */
export function LandingPage() {
  return (
    <main className="page">
      <h1>
        {PRODUCT_NAME} <span className="muted">Open Beta</span>
      </h1>
      <p>Upload your design. Run FEA in the browser. No installs. Results in minutes.</p>
      <p>
        <Link to="/environment">Open Viewer</Link>
      </p>
    </main>
  );
}
