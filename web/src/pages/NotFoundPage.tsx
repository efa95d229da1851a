import { Link } from 'react-router';
import { usePageTitle } from '../components/page-title.ts';

/** An address the app has no page for. */
export function NotFoundPage() {
  usePageTitle('Page Not Found');
  return (
    <main className="page">
      <h1>Not Found</h1>
      <p className="muted">There is no page at this address.</p>
      <Link to="/">Back to Home</Link>
    </main>
  );
}
