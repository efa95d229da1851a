import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brotliBytes, DIST, pageJs, readManifest } from '../support/bundle.ts';

/**
 * JavaScript budgets (brotli bytes, as served) of the built web app (`npm run build -w web`): the
 * landing page loads the entry chunk and its static imports only; every other page adds its own lazy
 * chunk. The simulator (environment, charts) and the three.js viewer must stay out of the others, and so
 * must zod's schema code (≈ 22 kB brotli): the login, dashboard and billing starts parse nothing, so they
 * take their texts and rules from the schema-free contracts modules (auth-rules.ts, billing-rules.ts).
 */
const KB = 1000;
const BUDGETS: [page: string, module: string | undefined, budget: number][] = [
  ['landing', undefined, 150 * KB],
  ['login', 'src/pages/LoginPage.tsx', 105 * KB],
  ['register', 'src/pages/RegisterPage.tsx', 105 * KB],
  ['forgot password', 'src/pages/ForgotPasswordPage.tsx', 105 * KB],
  ['dashboard', 'src/pages/DashboardPage.tsx', 110 * KB],
  ['billing', 'src/pages/BillingPage.tsx', 110 * KB],
  ['environment', 'src/pages/EnvironmentPage.tsx', 220 * KB],
];

describe('bundle budgets', () => {
  const manifest = readManifest();
  for (const [page, module, budget] of BUDGETS) {
    it(`${page} page JavaScript ≤ ${budget / KB} kB compressed`, () => {
      const { bytes, files } = pageJs(manifest, module);
      console.log(`${page}: ${(bytes / KB).toFixed(1)} kB brotli in ${files.length} files`);
      expect(bytes, `${page} loads ${files.join(', ')}`).toBeLessThanOrEqual(budget);
      if (page !== 'environment') {
        expect(
          files.filter((f) => /EnvironmentPage|viewer/.test(f)),
          page,
        ).toEqual([]);
        // zod's classes register under their names ($ZodObject), which survive minification.
        const withZod = files.filter((f) => readFileSync(join(DIST, f), 'utf8').includes('$ZodObject'));
        expect(withZod, `${page} loads zod's schema code`).toEqual([]);
      }
    });
  }

  it('loads the result charts as their own chunks, not with the environment', () => {
    // Each family's chart panels (families/<id>/index.ts lazyChart) are fetched when results are first shown.
    const charts = Object.entries(manifest).filter(([src]) =>
      /^src\/environment\/families\/[^/]+\/results\/[^/]+\.tsx$/.test(src),
    );
    expect(
      charts.map(([src]) => src.replace(/^src\/environment\/families\//, '')),
      "the families' chart panels",
    ).toEqual(
      expect.arrayContaining([
        'em/results/TimeDomain.tsx',
        'thermal/results/ThermalHistory.tsx',
        'vibration/results/HarmonicResponse.tsx',
      ]),
    );
    const environment = pageJs(manifest, 'src/pages/EnvironmentPage.tsx').files;
    for (const [src, chunk] of charts) expect(environment, src).not.toContain(chunk.file);
    // LineChart's aria-labelled SVG is drawn only by the charts chunks.
    const withCharts = environment.filter((f) => readFileSync(join(DIST, f), 'utf8').includes('polyline'));
    expect(withCharts, 'the environment start draws no line chart').toEqual([]);
    const bytes = charts.reduce((n, [, chunk]) => n + brotliBytes(chunk.file), 0);
    console.log(
      `charts: ${(bytes / KB).toFixed(1)} kB brotli in ${charts.length} chunks, loaded with the first results`,
    );
  });

  it('serves the entry as one file: everything it imports statically is in it, and the viewer does not load it', () => {
    // React, the router, the JSX runtime and the logo used to be four small chunks that every page
    // fetched before the entry could run (web/build/entry-shell.ts).
    const { files } = pageJs(manifest);
    expect(files, 'the landing page JavaScript').toEqual([manifest['index.html']?.file]);
    expect(manifest['viewer.html']?.imports ?? [], 'the viewer page').not.toContain('index.html');
  });

  it('keeps the simulator and the 3D viewer out of the entry chunk', () => {
    const entry = manifest['index.html'];
    expect(entry?.dynamicImports).toContain('src/pages/EnvironmentPage.tsx');
    const { files } = pageJs(manifest);
    expect(files.some((f) => /three|viewer|EnvironmentPage/i.test(f))).toBe(false);
  });
});
