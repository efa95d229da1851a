import type { ApiTokenScope } from '@fieldline/contracts';

/**
 * Which routes an API token may call, and with which scope (issue 38): the job, geometry, results,
 * studies, materials and subscription-info routes. Reading (GET/HEAD) needs `read`; anything that
 * uploads, submits, cancels or otherwise changes or spends needs `run`. Never: /api/auth/*, token
 * management, billing and checkout, admin — those need the browser session. One table, read by the
 * bearer hook and by /api/docs, so what is documented is what is enforced.
 */
const TOKEN_ROUTE_PREFIXES = [
  '/api/fea/', // submit, status, download, results, cancel, save, studies under /api/fea/studies
  '/api/studies',
  '/api/convert-step',
  '/api/uploads/',
  '/results/tetra_output.json',
  '/api/materials',
  '/api/user/subscription-info',
  '/api/user/recent-jobs',
  '/api/docs', // the OpenAPI document itself, so a client generator can send its token everywhere
] as const;

const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * The scope a token needs for `method` on the route `path` (its pattern, e.g. `/api/fea/status/:jobId`
 * or `/api/fea/status/{jobId}`), or null when tokens are not accepted there.
 */
export function tokenScopeFor(method: string, path: string): ApiTokenScope | null {
  const accepted = TOKEN_ROUTE_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix));
  if (!accepted) return null;
  return READ_METHODS.has(method.toUpperCase()) ? 'read' : 'run';
}

/** Whether a token of scope `has` may do what needs `needs`. */
export function scopeAllows(has: ApiTokenScope, needs: ApiTokenScope): boolean {
  return needs === 'read' || has === 'run';
}
