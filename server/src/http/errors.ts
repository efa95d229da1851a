import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** An error with an HTTP status, a stable code and a user-facing message: `{error, message}`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what = 'Not found') => new HttpError(404, 'not_found', what);

/** Parses a request part with a contract schema; a mismatch is a 400 naming the first bad field. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw fieldError(result.error);
}

/** The 400 for a request part that does not fit its schema, naming the first bad field. */
export function fieldError(error: z.ZodError): HttpError {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return new HttpError(400, 'invalid_request', `${where}${issue?.message ?? 'Invalid request'}`);
}

/**
 * Fastify's refusals before routing, in the API's `{error, message}` form. A path parameter longer than
 * the router's limit (maxParamLength, declared as `maxLength` in /api/docs) names nothing that exists:
 * 404 like an unknown id, rather than Fastify's bare 414 (schemathesis counted it as accepting input
 * the document forbids). A malformed URL stays a 400.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.status(404).send({ error: 'not_found', message: 'Not found' });
    return;
  }
  reply.status(400).send({ error: 'bad_request', message: err.message });
}

export interface ErrorHandlerOptions {
  /** Unknown GET/HEAD paths outside the API (`isApiPath`): the web app's redirect or HTML 404. */
  pageNotFound?: (request: FastifyRequest, reply: FastifyReply) => unknown;
  isApiPath?: (url: string) => boolean;
  /** The methods a path has routes for: another method on it is a 405 with `Allow`, not a 404. */
  allowedMethods?: (url: string) => string[];
}

export function installErrorHandler(app: FastifyInstance, options: ErrorHandlerOptions = {}): void {
  app.setErrorHandler((err: FastifyError | HttpError, request, reply) => {
    if (err instanceof HttpError) {
      return reply
        .status(err.statusCode)
        .headers(err.headers)
        .send({ error: err.code, message: err.message, ...err.extra });
    }
    const status = err.statusCode ?? 500;
    if (status >= 500 && isBackendUnavailable(err)) {
      // A database or storage restart is a wait, not a fault: say so and when to try again.
      request.log.warn({ err }, 'a backend is unreachable');
      return reply.status(503).header('retry-after', '5').send({
        error: 'service_unavailable',
        message:
          'The service is briefly unavailable (a database or storage connection failed). Please try again in a few seconds.',
      });
    }
    if (status >= 500) {
      request.log.error({ err }, 'unhandled error');
      return reply.status(500).send({ error: 'internal_error', message: 'Internal server error' });
    }
    const code = err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'unsupported_media_type' : 'bad_request';
    return reply.status(status).send({ error: code, message: err.message });
  });
  // A wrong method is refused before its body is parsed: Fastify would otherwise answer a body-less
  // `QUERY` with 400 "must provide a Content-Type" (RFC 10008) although no route takes QUERY there.
  // A request Fastify routed by a templated path is refused too when a concrete documented path names
  // it and takes other methods: `GET /api/fea/studies/estimate` (POST only) reached
  // `GET /api/fea/studies/{studyId}` and answered 404 "Study not found" (schemathesis).
  const { allowedMethods } = options;
  if (allowedMethods) {
    app.addHook('onRequest', (request, reply, done) => {
      if (request.is404) {
        if (!refuseMethod(request, reply, allowedMethods)) done();
        return;
      }
      const allowed = allowedMethods(request.url);
      const wrong = allowed.length > 0 && !allowed.includes(request.method);
      if (!wrong || !refuseMethod(request, reply, allowedMethods)) done();
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const { pageNotFound, isApiPath } = options;
    if (
      pageNotFound &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath?.(request.url)
    ) {
      return pageNotFound(request, reply);
    }
    if (refuseMethod(request, reply, options.allowedMethods)) return;
    reply.status(404).send({ error: 'not_found', message: `No route for ${request.method} ${request.url}` });
  });
}

/** Answers 405 with `Allow` when the request's path has routes for other methods; false when it has none. */
function refuseMethod(
  request: FastifyRequest,
  reply: FastifyReply,
  allowedMethods: ((url: string) => string[]) | undefined,
): boolean {
  const allowed = allowedMethods?.(request.url) ?? [];
  if (allowed.length === 0) return false;
  reply
    .status(405)
    .header('allow', allowed.join(', '))
    .send({
      error: 'method_not_allowed',
      message: `${request.method} is not allowed here; use ${allowed.join(' or ')}`,
    });
  return true;
}

/** Connection-level failures (refused, cut, the database shutting down): the backend is away, not broken. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
const PG_UNAVAILABLE = /^(08|57P0[1-3])/; // connection_exception, admin/crash shutdown, cannot_connect_now
// node-postgres's own words for a client whose connection is gone: cut under a query, or used again after
// that (the ROLLBACK of a transaction cut by a database crash fails this way, and that is what surfaces).
const PG_CONNECTION_GONE =
  /^(Connection terminated|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)/;

export function isBackendUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  if (UNREACHABLE.has(code) || PG_UNAVAILABLE.test(code)) return true;
  return typeof e?.message === 'string' && PG_CONNECTION_GONE.test(e.message);
}
