import { COMPRESS_MIN_BYTES } from '../http/compress-json.ts';
import type { FastRoute, LaneReply } from '../http/fast-lane.ts';
import { cachedCaller, type LaneCallerDeps } from '../http/lane-caller.ts';
import { type JobOwner, ownerOf } from '../jobs/job-owner.ts';
import type { Session } from '../sessions/session-service.ts';
import type { FeaService } from './fea-service.ts';
import { type ContentEncoding, etagMatches, pickEncoding, type StatusReply } from './status-replies.ts';

const PREFIX = '/api/fea/status/';

export interface StatusFastLaneDeps extends LaneCallerDeps {
  fea: FeaService;
  /** The headers every reply carries (installSecurityHeaders). */
  securityHeaders: Readonly<Record<string, string>>;
}

/** The lane's replies for one status reply (one snapshot of the job), built once. */
interface Prepared {
  notModified: LaneReply;
  /** The last If-None-Match header seen to match (a re-poll sends the same one): no parse per 304. */
  matched?: string;
  ok: Partial<Record<ContentEncoding, LaneReply>>;
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
    const notModified = { statusCode: 304, headers: common(reply.etag) };
    if (reply.kind === 'json') {
      const body = Buffer.from(reply.body, 'utf8');
      // A larger body is compressed by the JSON compression hook: the route sends it.
      if (body.length >= COMPRESS_MIN_BYTES) return undefined;
      const headers = [...common(reply.etag), ...type, 'content-length', String(body.length)];
      const ok = { statusCode: 200, headers, body };
      p = { notModified, ok: { identity: ok, br: ok, gzip: ok } };
    } else {
      const encoded = (encoding: 'br' | 'gzip') => ({
        statusCode: 200,
        headers: [
          ...common(reply.etag),
          ...type,
          'content-encoding',
          encoding,
          'content-length',
          String(reply.body[encoding].length),
        ],
        body: reply.body[encoding],
      });
      // identity (a gunzip per request) is left to the route.
      p = { notModified, ok: { br: encoded('br'), gzip: encoded('gzip') } };
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

  // One owner object per cached session (the session cache shares its objects with the lane).
  const owners = new WeakMap<Readonly<Session>, JobOwner>();
  const ownerOfCached = (session: Readonly<Session>) => {
    let owner = owners.get(session);
    if (!owner) {
      owner = ownerOf(session);
      owners.set(session, owner);
    }
    return owner;
  };

  return (req) => {
    if (req.method !== 'GET' || !req.url?.startsWith(PREFIX)) return undefined;
    const jobId = req.url.slice(PREFIX.length);
    if (jobId.length === 0 || /[/?%#]/.test(jobId)) return undefined;
    const session = cachedCaller(req, deps);
    if (!session) return undefined;
    const reply = deps.fea.statusReplyNow(jobId, ownerOfCached(session));
    if (!reply) return undefined;
    const p = prepare(reply);
    if (!p) return undefined;
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch !== undefined) {
      if (ifNoneMatch === p.matched) return p.notModified;
      if (etagMatches(ifNoneMatch, reply.etag)) {
        if (typeof ifNoneMatch === 'string') p.matched = ifNoneMatch;
        return p.notModified;
      }
    }
    return p.ok[encodingOf(req.headers['accept-encoding'])];
  };
}
