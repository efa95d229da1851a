import type { IncomingHttpHeaders } from 'node:http';

/**
 * The credentials of an `Authorization: Bearer …` header, or undefined when the request has none.
 * A request that carries one is authenticated by it alone: its cookies are ignored (so it is exempt
 * from the cookie CSRF rule, which a cross-site page cannot exploit: it cannot set this header
 * without a CORS preflight the server never answers).
 */
export function bearerCredentials(headers: IncomingHttpHeaders): string | undefined {
  const header = headers.authorization;
  if (typeof header !== 'string') return undefined;
  const space = header.indexOf(' ');
  const scheme = space === -1 ? header : header.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return undefined;
  return space === -1 ? '' : header.slice(space + 1).trim();
}

/** Whether the request authenticates with a bearer token (however malformed; the bearer hook judges it). */
export function hasBearer(headers: IncomingHttpHeaders): boolean {
  return bearerCredentials(headers) !== undefined;
}
