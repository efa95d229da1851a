import type { FastifyBaseLogger } from 'fastify';
import { COMPRESS_MIN_BYTES } from '../http/compress-json.ts';
import type { FastRoute } from '../http/fast-lane.ts';
import { cachedCaller, type LaneCallerDeps } from '../http/lane-caller.ts';
import { ownerOf } from '../jobs/job-owner.ts';
import type { FeaService } from './fea-service.ts';
import { type ContentEncoding, etagMatches, pickEncoding, type StatusReply } from './status-replies.ts';

const PREFIX = '/api/fea/status/';

export interface StatusFastLaneDeps extends LaneCallerDeps {
  fea: FeaService;
  /** The headers every reply carries (installSecurityHeaders). */
  securityHeaders: Readonly<Record<string, string>>;
  log: FastifyBaseLogger & { isLevelEnabled?(level: string): boolean };
}

/** A reply's bytes and header lists, built once per reply (per snapshot of the job). */
interface Prepared {
  notModified: string[];
  ok: Partial<Record<ContentEncoding, string[]>>;
  body?: Buffer;
}

/**
 * GET /api/fea/status/{jobId} (fea-routes.ts) answered from memory when everything it needs is cached:
 * the session (`resolveCachedNow`: fresh, no expiry to enforce, no touch due), its user (read as active
 * in the last few seconds, as the route's `cachedAuth` allows), the job's status owned by that session,
 * and its reply already built. The reply is the same bytes and headers Fastify sends (a test compares
 * them); anything else — no cookie, a cache miss, someone else's job (404), an identity-only client
 * of a completed job, an unusual URL or cookie — goes to the route itself.
 */
export function statusFastLane(deps: StatusFastLaneDeps): FastRoute {
  const prepared = new WeakMap<object, Prepared>();
  const security = Object.entries(deps.securityHeaders).flat();
  const common = (etag: string) => [
    ...security,
    'cache-control',
    'private, no-cache',
    'etag',
    etag,
    'vary',
    'Accept-Encoding',
  ];
  const prepare = (reply: StatusReply): Prepared | undefined => {
    const key = reply.kind === 'json' ? reply : reply.body;
    let p = prepared.get(key);
    if (p) return p;
    const type = ['content-type', 'application/json; charset=utf-8'];
    if (reply.kind === 'json') {
      const body = Buffer.from(reply.body, 'utf8');
      // A larger body is compressed by the JSON compression hook: the route sends it.
      if (body.length >= COMPRESS_MIN_BYTES) return undefined;
      const ok = [...common(reply.etag), ...type, 'content-length', String(body.length)];
      p = { notModified: common(reply.etag), ok: { identity: ok, br: ok, gzip: ok }, body };
    } else {
      const encoded = (encoding: 'br' | 'gzip') => [
        ...common(reply.etag),
        ...type,
        'content-encoding',
        encoding,
        'content-length',
        String(reply.body[encoding].length),
      ];
      // identity (a gunzip per request) is left to the route.
      p = { notModified: common(reply.etag), ok: { br: encoded('br'), gzip: encoded('gzip') } };
    }
    prepared.set(key, p);
    return p;
  };
  const encodings = new Map<string, ContentEncoding>();
  const encodingOf = (header: string | undefined): ContentEncoding => {
    if (header === undefined) return 'identity';
    let e = encodings.get(header);
    if (e === undefined) {
      e = pickEncoding(header);
      if (encodings.size >= 64) encodings.clear();
      encodings.set(header, e);
    }
    return e;
  };

  return (req) => {
    if (req.method !== 'GET' || !req.url?.startsWith(PREFIX)) return undefined;
    const jobId = req.url.slice(PREFIX.length);
    if (jobId.length === 0 || /[/?%#]/.test(jobId)) return undefined;
    const session = cachedCaller(req, deps);
    if (!session) return undefined;
    const reply = deps.fea.statusReplyNow(jobId, ownerOf(session));
    if (!reply) return undefined;
    const p = prepare(reply);
    if (!p) return undefined;
    const started = deps.log.isLevelEnabled?.('debug') ? performance.now() : 0;
    const done = (statusCode: number) => {
      if (started)
        deps.log.debug(
          {
            req: { method: 'GET', url: req.url },
            res: { statusCode },
            responseTime: performance.now() - started,
          },
          'request completed (status fast lane)',
        );
    };
    if (etagMatches(req.headers['if-none-match'], reply.etag))
      return (res) => {
        res.writeHead(304, p.notModified);
        res.end();
        done(304);
      };
    const encoding = encodingOf(req.headers['accept-encoding']);
    const headers = p.ok[encoding];
    if (!headers) return undefined;
    const body = reply.kind === 'json' ? p.body : reply.body[encoding as 'br' | 'gzip'];
    return (res) => {
      res.writeHead(200, headers);
      res.end(body);
      done(200);
    };
  };
}
