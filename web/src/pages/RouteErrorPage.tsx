import { Link } from 'react-router';
import { usePageTitle } from '../components/page-title.ts';

/**
 * What a page that failed to load or render shows, instead of React Router's developer screen
 * ("Unexpected Application Error! … Hey developer"): usually a lost connection or a release in between.
 */
export function RouteErrorPage() {
  usePageTitle('Page Could Not Load');
  return (
    <main className="page">
      <h1>This page could not be loaded</h1>
      <p className="muted">Check your connection and reload the page. Your saved work is not affected.</p>
      <p>
        <button type="button" className="primary" onClick={() => window.location.reload()}>
          Reload
        </button>{' '}
        <Link to="/">Back to Home</Link>
      </p>
    </main>
  );
}
