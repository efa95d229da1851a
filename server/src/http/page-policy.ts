import { statSync } from 'node:fs';
import type { HelmetOptions } from 'helmet';
import { allowInlineScripts, builtPageScriptHashes } from './inline-scripts.ts';
import { securityHeadersOf } from './security-headers.ts';

/** Security headers that follow the built index.html: see builtPageHeaders. */
export interface LiveHeaders {
  /** the headers every reply carries; updated in place */
  readonly headers: Record<string, string>;
  /** re-reads index.html's inline-script hashes when the file changed since the last look */
  refresh(): void;
}

/**
 * The security headers with the built index.html's inline scripts allowed by hash, kept in step with the
 * file: `npm run build -w web` under a running server rewrites index.html with a new route-preload script,
 * and a policy hashed at start-up then blocks it (qa29: a blank page until the server restarted). One
 * stat per refresh; the page is re-read and the policy rebuilt only when its modification time or size moved.
 */
export function builtPageHeaders(indexHtmlPath: string, base: HelmetOptions): LiveHeaders {
  const headers: Record<string, string> = {};
  let seen: string | null = null;
  const refresh = () => {
    const stat = statSync(indexHtmlPath, { throwIfNoEntry: false });
    const version = stat ? `${stat.mtimeMs}:${stat.size}` : 'none';
    if (version === seen) return;
    seen = version;
    const next = securityHeadersOf(allowInlineScripts(base, builtPageScriptHashes(indexHtmlPath)));
    for (const name of Object.keys(headers)) delete headers[name];
    Object.assign(headers, next);
  };
  refresh();
  return { headers, refresh };
}
