import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { HelmetOptions } from 'helmet';

/** `<script>` elements without a `src`: their text is what the browser hashes for the CSP. */
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

/** CSP source expressions (`'sha256-…'`) of the inline scripts of an HTML page, in page order. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map(
    ([, text]) =>
      `'sha256-${createHash('sha256')
        .update(text ?? '', 'utf8')
        .digest('base64')}'`,
  );
}

/** The inline script hashes of the built app's index.html (none when it is not built). */
export function builtPageScriptHashes(indexHtmlPath: string): string[] {
  return existsSync(indexHtmlPath) ? inlineScriptHashes(readFileSync(indexHtmlPath, 'utf8')) : [];
}

/**
 * The policy with these exact inline scripts allowed by hash (the built index.html's route preload,
 * web/build/route-preload.ts): any other inline script, or a changed one, is still refused.
 */
export function allowInlineScripts(options: HelmetOptions, hashes: readonly string[]): HelmetOptions {
  if (hashes.length === 0) return options;
  const csp = options.contentSecurityPolicy;
  if (typeof csp !== 'object' || !csp.directives) return options;
  const scriptSrc = csp.directives.scriptSrc;
  const current = Array.isArray(scriptSrc) ? scriptSrc : ["'self'"];
  return {
    ...options,
    contentSecurityPolicy: {
      ...csp,
      directives: { ...csp.directives, scriptSrc: [...current, ...hashes] },
    },
  };
}
