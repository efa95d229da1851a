import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.ts';
import { hasBearer } from './bearer-header.ts';

export interface CsrfOptions {
  /** Origins the app is served from (config.publicOrigin); a browser's Origin must be one of them. */
  allowedOrigins: string[];
  /**
   * Paths that authenticate each request by other means and are called server-to-server, so they
   * skip the origin and content-type checks, e.g. `POST /api/stripe/webhook` (Stripe-Signature).
   */
  exemptPaths?: Iterable<string>;
  /** Paths that take multipart/form-data uploads (e.g. `POST /api/convert-step`); JSON elsewhere. */
  multipartPaths?: Iterable<string>;
}

export const DEFAULT_CSRF_EXEMPT_PATHS = ['/api/stripe/webhook'];
export const DEFAULT_MULTIPART_PATHS = ['/api/convert-step'];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// What a browser sends for a request the page's own script made, or one the user typed.
const SAME_ORIGIN_FETCH_SITES = new Set(['same-origin', 'none']);

const crossSite = () => new HttpError(403, 'csrf_rejected', 'Cross-site request refused');

function pathOf(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q === -1 ? request.url : request.url.slice(0, q);
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/**
 * CSRF defence for cookie sessions. Every state-changing request (including login and register, so
 * nobody can be signed in to an attacker's account) must come from our own pages:
 * - `Sec-Fetch-Site` (all current browsers) must be same-origin;
 * - without it, `Origin` must be one of ours; a request with neither is not from a browser page.
 * A body must be JSON (multipart on upload paths): a cross-site HTML form cannot send JSON, and JSON
 * from another origin needs a CORS preflight we never answer.
 * Requests with `Authorization: Bearer` (API tokens) are exempt, and only they: the session hook
 * ignores their cookies, and a cross-site page cannot set that header without a preflight.
 */
export function installCsrfProtection(app: FastifyInstance, options: CsrfOptions): void {
  const allowed = new Set(options.allowedOrigins.map((o) => o.replace(/\/$/, '')));
  const exempt = new Set(options.exemptPaths ?? DEFAULT_CSRF_EXEMPT_PATHS);
  const multipart = new Set(options.multipartPaths ?? DEFAULT_MULTIPART_PATHS);

  // A callback hook, not an async one: a GET (every poll) passes without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    try {
      check(request);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });

  function check(request: FastifyRequest): void {
    const path = pathOf(request);
    if (exempt.has(path)) return;
    // Authenticated by `Authorization: Bearer` alone (cookies ignored): no ambient credential to forge.
    if (hasBearer(request.headers)) return;

    const fetchSite = request.headers['sec-fetch-site'];
    if (typeof fetchSite === 'string') {
      if (!SAME_ORIGIN_FETCH_SITES.has(fetchSite)) throw crossSite();
    } else {
      const origin = request.headers.origin;
      if (typeof origin === 'string' && !allowed.has(origin)) throw crossSite();
    }

    if (hasBody(request)) {
      const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      const json = type === 'application/json';
      const form = type === 'multipart/form-data' && multipart.has(path);
      if (!json && !form) {
        throw new HttpError(
          415,
          'unsupported_media_type',
          multipart.has(path)
            ? 'Send the request body as multipart/form-data or application/json'
            : 'Send the request body as application/json',
        );
      }
    }
  }
}
