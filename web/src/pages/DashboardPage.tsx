import { Link, useNavigate } from 'react-router';
import { useAuth } from '../auth/index.ts';

/** Minimal signed-in page so the auth flows have a destination; the billing issue builds the dashboard. */
export function DashboardPage() {
  const { currentUser, logout } = useAuth();
  const navigate = useNavigate();
  return (
    <main className="page">
      <h1>Welcome, {currentUser?.name}</h1>
      <p className="muted">Signed in as {currentUser?.email}. The account overview comes with billing.</p>
      <div className="button-row">
        <button type="button" className="primary" onClick={() => navigate('/environment')}>
          Launch Simulator
        </button>
        <button
          type="button"
          onClick={async () => {
            await logout();
            navigate('/');
          }}
        >
          Logout
        </button>
      </div>
      <p>
        <Link to="/">Back to Home</Link>
      </p>
    </main>
  );
}
