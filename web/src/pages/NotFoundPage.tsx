import { Link } from 'react-router';
import { usePageTitle } from '../components/page-title.ts';

/** Placeholder: its own issue builds this page. */
export function NotFoundPage() {
  usePageTitle('Page Not Found');
  return (
    <main className="page">
      <h1>Not Found</h1>
      <p className="muted">This page is not built yet.</p>
      <Link to="/">Back to Home</Link>
    </main>
  );
}
