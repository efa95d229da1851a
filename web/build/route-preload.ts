import type { Plugin, Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/**
 * The lazily loaded page behind each hash route (web/src/routes.tsx), and the API reads its first
 * paint waits on. Keys are React Router paths (matched without case and trailing slash, as the router
 * does); routes with parameters (checkout) are left out. web/test/route-preload.test.ts keeps this in
 * step with the router.
 */
export const ROUTE_PRELOADS: Record<string, { page: string; data?: string[] }> = {
  '/environment': { page: 'src/pages/EnvironmentPage.tsx' },
  '/userdatabase/Login': { page: 'src/pages/LoginPage.tsx' },
  '/userdatabase/Register': { page: 'src/pages/RegisterPage.tsx' },
  '/userdatabase/ForgotPassword': { page: 'src/pages/ForgotPasswordPage.tsx' },
  '/dashboard': { page: 'src/pages/DashboardPage.tsx' },
  // The billing page's largest element (the test-mode banner or the plan cards) is drawn from /api/plans.
  '/billing': { page: 'src/pages/BillingPage.tsx', data: ['/api/plans'] },
  '/billing/manage': { page: 'src/pages/ManageBillingPage.tsx' },
  '/docs': { page: 'src/pages/InfoPage.tsx' },
  '/docs/validation': { page: 'src/pages/InfoPage.tsx' },
  '/blog': { page: 'src/pages/InfoPage.tsx' },
  '/support': { page: 'src/pages/InfoPage.tsx' },
  '/privacy-policy': { page: 'src/pages/InfoPage.tsx' },
  '/terms-of-service': { page: 'src/pages/InfoPage.tsx' },
  '/privacy': { page: 'src/pages/InfoPage.tsx' },
  '/terms': { page: 'src/pages/InfoPage.tsx' },
};

/** The key a hash route is looked up by: path only, lower case, no trailing slash. */
export const routeKey = (path: string): string => path.toLowerCase().replace(/\/+$/, '') || '/';

/**
 * The inline script index.html runs while it is parsed: for the route in `location.hash`, it adds
 * `<link rel=modulepreload>` for the page's chunks, `<link rel=preload as=style>` for its CSS and
 * `<link rel=preload as=fetch>` for its API reads. These then download beside the entry instead of
 * after it (entry evaluated → router rendered → `import()` → the page renders and fetches). The
 * app's own `import()` and `fetch()` take the preloaded responses: CORS mode without credentials
 * (`crossorigin=""`), as Vite's preload helper asks for chunks and CSS and as `fetch()` asks by default. Plain ES5, no dependencies: it
 * runs before any module. The server allows it by its hash in the Content-Security-Policy.
 */
export function routePreloadScript(files: Record<string, string[]>): string {
  return `(function(){var f=${JSON.stringify(files)}[(location.hash.slice(1).split(/[?#]/)[0].toLowerCase().replace(/\\/+$/,"")||"/")];if(!f)return;for(var i=0;i<f.length;i++){var l=document.createElement("link"),u=f[i];if(/\\.css$/.test(u)){l.rel="preload";l.setAttribute("as","style")}else if(u.indexOf("/api/")===0){l.rel="preload";l.setAttribute("as","fetch")}else{l.rel="modulepreload"}l.crossOrigin="";l.href=u;document.head.appendChild(l)}})();`;
}

function isChunk(item: OutputBundle[string] | undefined): item is OutputChunk {
  return item?.type === 'chunk';
}

/** A chunk and every chunk it imports statically (what the browser fetches before it can run). */
function staticClosure(bundle: OutputBundle, fileName: string, seen = new Set<string>()): Set<string> {
  if (seen.has(fileName)) return seen;
  seen.add(fileName);
  const chunk = bundle[fileName];
  if (isChunk(chunk)) for (const dep of chunk.imports) staticClosure(bundle, dep, seen);
  return seen;
}

function cssOf(bundle: OutputBundle, fileNames: Iterable<string>): Set<string> {
  const css = new Set<string>();
  for (const name of fileNames) {
    const chunk = bundle[name];
    if (isChunk(chunk)) for (const file of chunk.viteMetadata?.importedCss ?? []) css.add(file);
  }
  return css;
}

/**
 * The files each route's page needs beyond what the entry already loads: its chunk and the chunks
 * it imports, their CSS, then its API reads. URLs under `base`.
 */
export function routePreloadFiles(
  bundle: OutputBundle,
  entryFileName: string,
  routes: Record<string, { page: string; data?: string[] }>,
  base = '/',
): Record<string, string[]> {
  const entryFiles = staticClosure(bundle, entryFileName);
  const entryCss = cssOf(bundle, entryFiles);
  const pageChunks = new Map<string, string>();
  for (const item of Object.values(bundle)) {
    if (isChunk(item) && item.isDynamicEntry && item.facadeModuleId) {
      pageChunks.set(item.facadeModuleId.replaceAll('\\', '/'), item.fileName);
    }
  }
  const files: Record<string, string[]> = {};
  for (const [route, { page, data = [] }] of Object.entries(routes)) {
    const pageChunk = [...pageChunks].find(([module]) => module.endsWith(`/${page}`))?.[1];
    if (!pageChunk) throw new Error(`route preload: no lazily loaded chunk for ${page} (route ${route})`);
    const js = [...staticClosure(bundle, pageChunk)].filter((f) => !entryFiles.has(f));
    const css = [...cssOf(bundle, js)].filter((f) => !entryCss.has(f));
    files[routeKey(route)] = [...js, ...css].map((f) => `${base}${f}`).concat(data);
  }
  return files;
}

/**
 * The script placed before the page's first `<link>`: after `<meta charset>` (which must come in the
 * first 1024 bytes), and ahead of the stylesheet, since an inline script after a stylesheet link waits
 * for that stylesheet to load before it runs.
 */
export function withScriptBeforeLinks(html: string, script: string): string {
  const at = html.search(/<link\b/i);
  if (at < 0 || at > html.search(/<\/head>/i))
    throw new Error('route preload: index.html has no <link> in <head>');
  return `${html.slice(0, at)}<script>${script}</script>\n    ${html.slice(at)}`;
}

/** Vite plugin: puts the route preload script into index.html at build time. */
export function routePreload(routes = ROUTE_PRELOADS): Plugin {
  let base = '/';
  return {
    name: 'fieldline-route-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        // Only the app's page (index.html) has routes; the viewer page is left as it is.
        if (!ctx.bundle || !ctx.chunk || !ctx.filename.endsWith('index.html')) return;
        const files = routePreloadFiles(ctx.bundle, ctx.chunk.fileName, routes, base);
        return withScriptBeforeLinks(html, routePreloadScript(files));
      },
    },
  };
}
