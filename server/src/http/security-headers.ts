import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { LiveHeaders } from './page-policy.ts';

/** The app's Content-Security-Policy and the other helmet headers (one policy for every reply). */
export const SECURITY_HEADER_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      workerSrc: ["'self'", 'blob:'],
      connectSrc: ["'self'"],
      frameAncestors: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
    },
  },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets for these options, computed once. Helmet's own middleware (and
 * @fastify/helmet) rebuilds the policy on every request, which cost ~10 % of a small reply's CPU;
 * the policy has no per-request part (no nonces), so the headers are the same bytes every time.
 */
export function securityHeadersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failed: unknown;
  helmet(options)({} as never, res as never, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed;
  return headers;
}

/**
 * Every reply (API, web app, errors) carries the security headers; returns them (for the fast lanes, which
 * copy them once: their JSON replies keep the start-up policy, which only a page's scripts depend on). With
 * live headers (page-policy.ts), a request for a page first refreshes them, so a rebuilt index.html is
 * served under a policy that allows its own inline script.
 */
export function installSecurityHeaders(
  app: FastifyInstance,
  options: HelmetOptions | LiveHeaders = SECURITY_HEADER_OPTIONS,
): Readonly<Record<string, string>> {
  const live: Pick<LiveHeaders, 'headers'> & Partial<LiveHeaders> =
    'refresh' in options ? options : { headers: securityHeadersOf(options) };
  const { headers, refresh } = live;
  app.addHook('onRequest', (request, reply, done) => {
    if (refresh && (request.method === 'GET' || request.method === 'HEAD') && isPagePath(request.url))
      refresh();
    reply.headers(headers);
    done();
  });
  return headers;
}

/** `/`, `/index.html`: the requests that get the built index.html. */
function isPagePath(url: string): boolean {
  const path = url.split('?')[0] ?? url;
  return path === '/' || path === '/index.html';
}
