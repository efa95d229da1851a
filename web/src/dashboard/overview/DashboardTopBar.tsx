import { Link, NavLink, useNavigate } from 'react-router';
import { useAuth } from '../../auth/index.ts';
import { Brand, PRODUCT_NAME } from '../../components/Logo.tsx';

const navClass = ({ isActive }: { isActive: boolean }) =>
  `dash-nav-link${isActive ? ' dash-nav-active' : ''}`;

/**
 * Top bar of the signed-in pages (dashboard, billing, checkout): logo and brand, Dashboard and
 * Billing links, the user's name and Logout, which logs out and goes to /.
 */
export function DashboardTopBar() {
  const { currentUser, logout } = useAuth();
  const navigate = useNavigate();
  return (
    <header className="site-topbar">
      <div className="site-topbar-inner">
        <Link to="/" className="brand-link" aria-label={`${PRODUCT_NAME} home`}>
          <Brand />
        </Link>
        <div className="site-topbar-actions">
          <NavLink to="/dashboard" className={navClass}>
            Dashboard
          </NavLink>
          <NavLink to="/billing" className={navClass}>
            Billing
          </NavLink>
          <span className="welcome dash-user" data-testid="topbar-user">
            {currentUser?.name}
          </span>
          <button
            type="button"
            onClick={async () => {
              // Leave the protected page first: once signed out, its guard would send us to login.
              // Navigations are transitions; flushSync commits this one before the sign-out can
              // render the old page signed out (a race a slow machine lost).
              await navigate('/', { flushSync: true });
              await logout();
            }}
          >
            Logout
          </button>
        </div>
      </div>
    </header>
  );
}
