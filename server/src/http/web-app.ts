import fastifyStatic from '@fastify/static';
import { webRouteFor } from '@fieldline/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Paths the API owns: unknown ones keep their JSON errors. */
export function isApiPath(url: string): boolean {
  const path = url.split('?')[0] ?? url;
  return path === '/api' || path.startsWith('/api/') || path.startsWith('/results/');
}

/** Vite writes every file under assets/ with a content hash in its name: cacheable for good. */
const HASHED = /[\\/]assets[\\/][^\\/]+$/;
const HTML = /\.html$/;
const ASSET_NAME = /^[\w.-]+$/;

export function cacheControlFor(sentFile: string): string {
  const file = sentFile.replace(/\.(?:br|gz)$/, ''); // the twin sent in its place
  if (HASHED.test(file)) return 'public, max-age=31536000, immutable';
  if (HTML.test(file)) return 'no-cache';
  // Unhashed public files (favicon, touch icon): a day, revalidated by ETag after.
  return 'public, max-age=86400';
}

/**
 * Serves the built web app (web/dist): the brotli or gzip twin written at build time
 * (web/build/precompress.ts) when the request accepts it, with `Vary: Accept-Encoding`; hashed
 * assets immutable for a year, the HTML pages `no-cache`. A rebuild under a running server is served
 * too: its new assets here, its index.html's inline script by the policy of page-policy.ts.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: distDir,
    index: ['index.html'],
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    // The twins are sent in place of their file, never by their own name.
    allowedPath: (pathname) => !/\.(?:br|gz)$/.test(pathname),
    setHeaders: (res, file) => {
      res.setHeader('cache-control', cacheControlFor(file));
      res.setHeader('vary', 'Accept-Encoding');
    },
  });
  // The routes above are one per file found at start-up. A web build under a running server writes assets
  // with new content hashes, which this serves the same way (qa29: the rebuilt page's main chunk was a 404,
  // a blank page). Known files still take their own routes; a missing one is the page-not-found reply.
  app.get<{ Params: { '*': string } }>('/assets/*', (request, reply) => {
    const name = request.params['*'];
    // Vite's assets folder is flat: a plain file name, nothing that climbs out of it
    if (!ASSET_NAME.test(name) || name.startsWith('.')) return reply.callNotFound();
    return reply.sendFile(`assets/${name}`);
  });
}

/**
 * A GET for a path no route serves, outside the API: a typed or shared page path (`/dashboard`,
 * `/userdatabase/Login?x=1`) goes to its hash route; anything else is an HTML 404 with a way home.
 */
export function sendPageNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const url = new URL(request.url, 'http://localhost');
  const route = webRouteFor(url.pathname);
  if (route !== null) return reply.redirect(`/#${route}${url.search}`, 302);
  return reply
    .status(404)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .send(NOT_FOUND_HTML);
}

const NOT_FOUND_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta name="color-scheme" content="dark" />
    <meta name="robots" content="noindex" />
    <meta name="description" content="This page does not exist on Fieldline, browser-based finite element simulation." />
    <link rel="icon" href="/favicon.ico" sizes="32x32" />
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <title>Page not found — Fieldline</title>
    <style>
      body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #0d1117; color: #e6edf3;
        font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
      main { max-width: 32rem; padding: 2rem 1rem; text-align: center; }
      p { color: #9ea7b3; line-height: 1.5; }
      a { color: #58a6ff; }
      a.home { display: inline-block; margin-top: 1rem; padding: 0.6rem 1.2rem; border-radius: 6px; background: #1f6feb;
        color: #fff; text-decoration: none; font-weight: 600; }
      a:focus-visible { outline: 2px solid #58a6ff; outline-offset: 2px; }
    </style>
  </head>
  <body>
    <main>
      <h1>Page not found</h1>
      <p>There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <a class="home" href="/">Go to the Fieldline home page</a>
      <p><a href="/#/docs">Documentation</a> · <a href="/#/support">Support</a></p>
    </main>
  </body>
</html>
`;
