import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './server.ts';

export const DIST = join(REPO_ROOT, 'web', 'dist');

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export function readManifest(): Manifest {
  const file = join(DIST, '.vite', 'manifest.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build -w web\` first`);
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

/** The JS files a chunk loads before it runs: itself and its static imports, transitively. */
export function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) staticClosure(manifest, dep, seen);
  return seen;
}

/** Bytes of a built file as sent to a browser that accepts brotli (its .br twin when there is one). */
export function brotliBytes(file: string): number {
  const path = join(DIST, file);
  return readFileSync(existsSync(`${path}.br`) ? `${path}.br` : path).length;
}

/** JS bytes (brotli) of a page: the entry's static closure plus, for a lazy page, its chunk's closure. */
export function pageJs(manifest: Manifest, pageModule?: string): { bytes: number; files: string[] } {
  const keys = staticClosure(manifest, 'index.html');
  if (pageModule) staticClosure(manifest, pageModule, keys);
  const files = [...keys].map((k) => manifest[k]?.file).filter((f): f is string => !!f && f.endsWith('.js'));
  return { bytes: files.reduce((s, f) => s + brotliBytes(f), 0), files };
}
