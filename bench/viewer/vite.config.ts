import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// Builds the benchmark page (served at /bench/ next to the built viewer by run.mjs).
export default defineConfig({
  root: import.meta.dirname,
  base: '/bench/',
  build: {
    outDir: resolve(import.meta.dirname, 'out', 'page'),
    emptyOutDir: true,
  },
});
