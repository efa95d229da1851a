import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Rollup } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ROUTE_PRELOADS,
  routeKey,
  routePreloadFiles,
  routePreloadScript,
  withScriptBeforeLinks,
} from '../build/route-preload.ts';
import { router } from '../src/routes.tsx';

const WEB = join(import.meta.dirname, '..');

describe('ROUTE_PRELOADS', () => {
  const routesSource = readFileSync(join(WEB, 'src', 'routes.tsx'), 'utf8');

  it("names the router's own paths and the page each of them loads lazily", () => {
    const paths = router.routes.map((r) => r.path);
    for (const [path, { page }] of Object.entries(ROUTE_PRELOADS)) {
      expect(paths).toContain(path);
      expect(existsSync(join(WEB, page))).toBe(true);
      // routes.tsx: `const XPage = lazyPage(... import('./pages/XPage.tsx') ...)` and the route's element uses XPage.
      const name = page.replace(/^.*\//, '').replace(/\.tsx$/, '');
      expect(routesSource).toContain(`import('./pages/${name}.tsx')`);
      const at = routesSource.indexOf(`path: '${path}'`);
      const route = routesSource.slice(at, routesSource.indexOf('path:', at + 5));
      expect(route).toMatch(new RegExp(`\\b${name}\\b`));
    }
  });

  it('covers every lazily loaded page without a route parameter', () => {
    const covered = new Set(Object.values(ROUTE_PRELOADS).map(({ page }) => page));
    for (const [, name] of routesSource.matchAll(/import\('\.\/pages\/(\w+)\.tsx'\)/g)) {
      if (name === 'CheckoutPage') continue; // /checkout/:sessionId — reached from billing, never typed
      expect(covered).toContain(`src/pages/${name}.tsx`);
    }
  });
});

// Only the fields the plugin reads.
const chunk = (fileName: string, imports: string[], extra: Record<string, unknown> = {}) =>
  ({ type: 'chunk', fileName, imports, isDynamicEntry: false, ...extra }) as unknown as Rollup.OutputChunk;
const css = (files: string[]) => ({
  viteMetadata: { importedCss: new Set(files), importedAssets: new Set() },
});

describe('routePreloadFiles', () => {
  // main (entry) → react; the dashboard page → main, react, a shared dashboard chunk with its CSS.
  const bundle = {
    'assets/main.js': chunk('assets/main.js', ['assets/react.js'], css(['assets/main.css'])),
    'assets/react.js': chunk('assets/react.js', []),
    'assets/shared.js': chunk('assets/shared.js', ['assets/react.js'], css(['assets/dash.css'])),
    'assets/DashboardPage.js': chunk('assets/DashboardPage.js', ['assets/main.js', 'assets/shared.js'], {
      isDynamicEntry: true,
      facadeModuleId: '/app/web/src/pages/DashboardPage.tsx',
    }),
  } as unknown as Rollup.OutputBundle;

  it("lists the page's chunk, the chunks it imports and their CSS, minus the entry's, then its API reads", () => {
    const files = routePreloadFiles(
      bundle,
      'assets/main.js',
      { '/Dashboard': { page: 'src/pages/DashboardPage.tsx', data: ['/api/plans'] } },
      '/',
    );
    expect(files).toEqual({
      '/dashboard': ['/assets/DashboardPage.js', '/assets/shared.js', '/assets/dash.css', '/api/plans'],
    });
  });

  it('fails the build for a page that is not a lazily loaded chunk', () => {
    expect(() => routePreloadFiles(bundle, 'assets/main.js', { '/x': { page: 'src/pages/X.tsx' } })).toThrow(
      /no lazily loaded chunk for src\/pages\/X\.tsx/,
    );
  });
});

describe('routePreloadScript in the page', () => {
  const files = {
    '/dashboard': ['/assets/D.js', '/assets/d.css'],
    '/billing': ['/assets/B.js', '/api/plans'],
  };
  const run = (hash: string) => {
    window.location.hash = hash;
    new Function(routePreloadScript(files))();
    return [...document.head.querySelectorAll('link')].map((l) => ({
      rel: l.rel,
      as: l.getAttribute('as'),
      href: l.getAttribute('href'),
      crossorigin: l.getAttribute('crossorigin'),
    }));
  };
  afterEach(() => {
    document.head.innerHTML = '';
    window.location.hash = '';
  });

  it('preloads the chunks, CSS and API reads of the route in the hash, matched as the router matches', () => {
    expect(run('#/Dashboard/?tab=usage')).toEqual([
      { rel: 'modulepreload', as: null, href: '/assets/D.js', crossorigin: '' },
      { rel: 'preload', as: 'style', href: '/assets/d.css', crossorigin: '' },
    ]);
    document.head.innerHTML = '';
    expect(run('#/billing').map((l) => [l.rel, l.as, l.href])).toEqual([
      ['modulepreload', null, '/assets/B.js'],
      ['preload', 'fetch', '/api/plans'],
    ]);
  });

  it('adds nothing for the landing page or an unknown route', () => {
    expect(run('')).toEqual([]);
    expect(run('#/nope')).toEqual([]);
  });

  it('keys routes as the script looks them up', () => {
    expect(routeKey('/userdatabase/Login/')).toBe('/userdatabase/login');
    expect(routeKey('/')).toBe('/');
  });
});

describe('withScriptBeforeLinks', () => {
  it('puts the script after the charset and before the first link', () => {
    const html = '<html><head><meta charset="UTF-8" /><link rel="icon" href="/i.ico" /></head></html>';
    const out = withScriptBeforeLinks(html, 'x()');
    expect(out.indexOf('<meta charset')).toBeLessThan(out.indexOf('<script>x()</script>'));
    expect(out.indexOf('<script>x()</script>')).toBeLessThan(out.indexOf('<link'));
  });
});
