import { Link } from 'react-router';

/** Placeholder: its own issue builds this page. */
export function EnvironmentPage() {
  return (
    <main className="page">
      <h1>Environment</h1>
      <p className="muted">This page is not built yet.</p>
      <Link to="/">Back to Home</Link>
    </main>
  );
}
