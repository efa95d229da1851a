/**
 * Base URL of the API host that converts CAD (spec 001 §7: a separate backend origin, configured as a
 * base URL, falling back to the page origin). Set VITE_FIELDLINE_API_BASE when building the web app.
 */
export function apiBaseUrl(configured: string | undefined = import.meta.env.VITE_FIELDLINE_API_BASE): string {
  const base = configured?.trim();
  if (base) return base.replace(/\/+$/, '');
  return window.location.origin;
}
