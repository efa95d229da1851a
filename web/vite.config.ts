import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { entryShell } from './build/entry-shell.ts';
import { precompress } from './build/precompress.ts';
import { routePreload } from './build/route-preload.ts';

const shell = entryShell();

// Two entries: the SPA and the 3D viewer page the environment embeds in an iframe.
export default defineConfig({
  plugins: [react(), shell.plugin, routePreload(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the chunk graph the bundle budget test reads (e2e/tests/bundle-budget.e2e.ts).
    manifest: true,
    // The viewer page (three.js) is one chunk by design; the app's pages are split and budgeted.
    chunkSizeWarningLimit: 700,
    // Every browser the app supports has <link rel=modulepreload>; the polyfill would be one more
    // request on every page's start.
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        main: resolve(import.meta.dirname, 'index.html'),
        viewer: resolve(import.meta.dirname, 'viewer.html'),
      },
      // One request for the entry and all it imports (build/entry-shell.ts).
      output: { codeSplitting: { groups: [shell.group] } },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:8080', '/results': 'http://localhost:8080' },
  },
  test: {
    environment: 'jsdom',
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // A few tests run the real engine (Python start-up, NGSolve import); 5 s is too tight on a busy 2-core CI box.
    testTimeout: 60_000,
  },
});
