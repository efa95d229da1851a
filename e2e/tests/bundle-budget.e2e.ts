import { describe, expect, it } from 'vitest';
import { pageJs, readManifest } from '../support/bundle.ts';

/**
 * JavaScript budgets (brotli bytes, as served) of the built web app (`npm run build -w web`): the
 * landing page loads the entry chunk and its static imports only; every other page adds its own lazy
 * chunk. The simulator (environment, charts) and the three.js viewer must stay out of the others.
 */
const KB = 1000;
const BUDGETS: [page: string, module: string | undefined, budget: number][] = [
  ['landing', undefined, 150 * KB],
  ['login', 'src/pages/LoginPage.tsx', 120 * KB],
  ['register', 'src/pages/RegisterPage.tsx', 120 * KB],
  ['forgot password', 'src/pages/ForgotPasswordPage.tsx', 120 * KB],
  ['dashboard', 'src/pages/DashboardPage.tsx', 150 * KB],
  ['billing', 'src/pages/BillingPage.tsx', 150 * KB],
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
      }
    });
  }

  it('keeps the simulator and the 3D viewer out of the entry chunk', () => {
    const entry = manifest['index.html'];
    expect(entry?.dynamicImports).toContain('src/pages/EnvironmentPage.tsx');
    const { files } = pageJs(manifest);
    expect(files.some((f) => /three|viewer|EnvironmentPage/i.test(f))).toBe(false);
  });
});
