import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { z } from 'zod';
import { fieldError } from './errors.ts';
import type { ApiRegistry, RouteDoc } from './openapi.ts';

type RoutePart = 'params' | 'query' | 'body';

/**
 * One API route, declared once: the Fastify route, the parsing of its parts and its OpenAPI entry
 * (served at /api/docs) all come from this declaration and its zod schemas.
 */
export interface RouteSpec<
  P extends z.ZodType = z.ZodUnknown,
  Q extends z.ZodType = z.ZodUnknown,
  B extends z.ZodType = z.ZodUnknown,
  A = undefined,
> extends Omit<RouteDoc, 'body' | 'params' | 'query'> {
  params?: P;
  query?: Q;
  body?: B;
  /** What a missing body is parsed as (default: as it is, undefined). */
  emptyBody?: unknown;
  /** Runs first, so a caller without the right account gets its 401/403 before any 400; its result reaches the handler. */
  auth?: (request: FastifyRequest) => A;
  /** How a part that does not fit is refused; by default a 400 naming the first bad field. */
  invalid?: (part: RoutePart, error: z.ZodError, request: FastifyRequest) => Error;
  /** Runs after `auth` and the parsing (e.g. `ownedJob`). */
  preHandler?: preHandlerHookHandler;
  /** Fastify route config (e.g. `cachedAuth` for the status poll). */
  config?: Record<string, unknown>;
  handler: (
    input: { params: z.infer<P>; query: z.infer<Q>; body: z.infer<B>; auth: A },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => unknown;
}

export type Route = <
  P extends z.ZodType = z.ZodUnknown,
  Q extends z.ZodType = z.ZodUnknown,
  B extends z.ZodType = z.ZodUnknown,
  A = undefined,
>(
  spec: RouteSpec<P, Q, B, A>,
) => void;

interface Parsed {
  params: unknown;
  query: unknown;
  body: unknown;
  auth: unknown;
}
const parsedParts = new WeakMap<FastifyRequest, Parsed>();

/** `route` for one Fastify scope; every route of the scope lands in the same OpenAPI registry. */
export function createRouter(app: FastifyInstance, api: ApiRegistry): Route {
  return (spec) => {
    api.add(spec);
    const parse = (
      part: RoutePart,
      schema: z.ZodType | undefined,
      value: unknown,
      request: FastifyRequest,
    ) => {
      if (!schema) return value;
      const parsed = schema.safeParse(part === 'body' && value == null ? (spec.emptyBody ?? value) : value);
      if (parsed.success) return parsed.data;
      throw spec.invalid ? spec.invalid(part, parsed.error, request) : fieldError(parsed.error);
    };
    // Auth and parsing run as the first pre-handler, so pre-handlers such as `ownedJob` see parsed parts.
    // A callback hook (no promise per request); auth and parse errors go to the error handler.
    const prepare: preHandlerHookHandler = (request, _reply, done) => {
      try {
        const auth = spec.auth ? spec.auth(request) : undefined;
        parsedParts.set(request, {
          auth,
          params: parse('params', spec.params, request.params, request),
          query: parse('query', spec.query, request.query, request),
          body: parse('body', spec.body, request.body, request),
        });
      } catch (err) {
        return done(err as Error);
      }
      done();
    };
    app.route({
      method: spec.method.toUpperCase() as 'GET',
      url: spec.path.replace(/\{(\w+)\}/g, ':$1'),
      config: spec.config,
      preHandler: spec.preHandler ? [prepare, spec.preHandler] : [prepare],
      handler: async (request, reply) => {
        const input = parsedParts.get(request) as Parameters<typeof spec.handler>[0];
        return spec.handler(input, request, reply);
      },
    });
  };
}

/** The parsed parts of a request, for pre-handlers that run after `route`'s own parsing. */
export function parsedPartsOf(request: FastifyRequest): Parsed | undefined {
  return parsedParts.get(request);
}
