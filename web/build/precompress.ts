import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Types worth compressing; images other than SVG/ICO are compressed already. */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|ico|json|txt|map|webmanifest|wasm)$/;
/** Below this a compressed twin saves less than its headers cost. */
export const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip -9) beside every compressible file
 * of `dir` of at least MIN_BYTES, when the twin is smaller. The server sends the twin the browser
 * accepts (server/src/http/web-app.ts). Returns the files compressed.
 */
export function precompressDir(dir: string): { file: string; bytes: number; br: number; gz: number }[] {
  const done: { file: string; bytes: number; br: number; gz: number }[] = [];
  for (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const raw = readFileSync(file);
    if (raw.length < MIN_BYTES) continue;
    const br = brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
    const gz = gzipSync(raw, { level: 9 });
    if (br.length < raw.length) writeFileSync(`${file}.br`, br);
    if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
    done.push({ file, bytes: raw.length, br: br.length, gz: gz.length });
  }
  return done;
}

/** Vite plugin: precompresses the build output once it is written. */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'fieldline-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      // Called after a failed build too: leave the build's own error to be seen, not a missing dist/.
      if (!existsSync(outDir)) return;
      const done = precompressDir(outDir);
      const total = done.reduce((s, f) => s + f.bytes, 0);
      const br = done.reduce((s, f) => s + f.br, 0);
      this.info?.(`precompressed ${done.length} files: ${total} B → ${br} B brotli`);
    },
  };
}
