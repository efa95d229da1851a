import { z } from 'zod';
import { tokenScopeFor } from '../accounts/api-token-policy.ts';

/** Fastify's `maxParamLength` (default 100): a longer path parameter is answered 414 before any route runs. */
export const MAX_PATH_PARAM_LENGTH = 100;

const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A personal API token (`fl_…`, created on the dashboard, docs/api.md). Scopes: `read` for GET routes, `run` to upload, submit, cancel or save. Not accepted on /api/auth/*, token management, billing or admin routes.',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'fl_session',
    description: 'The browser session (sign in at /api/auth/login).',
  },
};

export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'delete' | 'patch';
  /** OpenAPI path, e.g. /api/fea/status/{jobId} */
  path: string;
  summary: string;
  tag: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** A request body that is not JSON and is parsed by the handler: its schema per content type (e.g. multipart). */
  requestContent?: Record<string, z.ZodType>;
  /** The success reply's JSON body. */
  response?: z.ZodType;
  /** A success reply that is not (only) JSON: its schema per content type (e.g. a download's formats). */
  responseContent?: Record<string, z.ZodType>;
  /** The success status(es) the reply may carry (default 200), e.g. 201 for a creation. */
  successStatus?: number | number[];
  /** Present when the route needs a signed-in account (route.ts `auth`); absent: guests too. */
  auth?: unknown;
}

/** Who may call a route: an API token of the scope accounts/api-token-policy.ts says, the session, or (no `auth`) anyone. */
function securityOf(r: RouteDoc): Record<string, string[]>[] {
  const scope = tokenScopeFor(r.method, r.path);
  return [
    ...(scope ? [{ bearerAuth: [scope] }] : []),
    { sessionCookie: [] },
    ...(r.auth === undefined ? [{}] : []),
  ];
}

/** A path parameter's schema with the router's length limit declared (schemathesis found the 414s). */
function withRouterLimit(schema: unknown): unknown {
  const s = schema as { type?: string; maxLength?: number; format?: string };
  if (s.type !== 'string' || s.format === 'uuid') return schema;
  return { ...s, maxLength: Math.min(s.maxLength ?? MAX_PATH_PARAM_LENGTH, MAX_PATH_PARAM_LENGTH) };
}

/** The properties of an object schema (path or query parameters) as JSON Schemas. */
function propertiesOf(schema: z.ZodType | undefined): {
  properties: Record<string, unknown>;
  required: string[];
} {
  if (!schema) return { properties: {}, required: [] };
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
    required?: string[];
  };
  return { properties: json.properties ?? {}, required: json.required ?? [] };
}

/** A documented path (`/api/fea/status/{jobId}`) as a regular expression over request paths. */
function pathPattern(path: string): RegExp {
  const parts = path.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

/**
 * Collects the documented routes. Routes register their contract schemas here, and the
 * OpenAPI document served at /api/docs is generated from the same zod schemas that validate.
 */
export class ApiRegistry {
  private readonly routes: RouteDoc[] = [];

  add(doc: RouteDoc): void {
    this.routes.push(doc);
    this.matchers = undefined;
  }

  private matchers: { pattern: RegExp; method: string; templated: number }[] | undefined;

  /**
   * The methods declared for a request URL's path (`{param}` matches one segment), upper case, so a
   * request with another method gets 405 and `Allow` instead of "no route" (RFC 9110 §15.5.6).
   * A concrete path wins over a templated one, as OpenAPI matches them: `/api/fea/studies/estimate`
   * is POST only, although `/api/fea/studies/{studyId}` (GET) would also match it.
   */
  methodsFor(url: string): string[] {
    this.matchers ??= this.routes.map((r) => ({
      method: r.method.toUpperCase(),
      pattern: pathPattern(r.path),
      templated: (r.path.match(/\{\w+\}/g) ?? []).length,
    }));
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const matching = this.matchers.filter((m) => m.pattern.test(path));
    const mostConcrete = Math.min(...matching.map((m) => m.templated));
    const methods = matching.filter((m) => m.templated === mostConcrete).map((m) => m.method);
    // Fastify answers HEAD for every GET route.
    if (methods.includes('GET')) methods.push('HEAD');
    return [...new Set(methods)];
  }

  document(version: string): Record<string, unknown> {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const r of this.routes) {
      const op: Record<string, unknown> = { summary: r.summary, tags: [r.tag], security: securityOf(r) };
      const pathProps = propertiesOf(r.params);
      const params: { name: string; in: string; required: boolean; schema: unknown }[] = [
        ...r.path.matchAll(/\{(\w+)\}/g),
      ].map((m) => ({
        name: m[1] ?? '',
        in: 'path',
        required: true,
        schema: withRouterLimit(pathProps.properties[m[1] ?? ''] ?? { type: 'string' }),
      }));
      const query = propertiesOf(r.query);
      for (const [name, schema] of Object.entries(query.properties)) {
        params.push({ name, in: 'query', required: query.required.includes(name), schema });
      }
      if (params.length > 0) op.parameters = params;
      const requestContent = r.body ? { 'application/json': r.body } : r.requestContent;
      if (requestContent) {
        op.requestBody = {
          required: true,
          content: Object.fromEntries(
            Object.entries(requestContent).map(([type, schema]) => [
              type,
              { schema: z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) },
            ]),
          ),
        };
      }
      const content = r.responseContent ?? (r.response ? { 'application/json': r.response } : undefined);
      const okContent = content
        ? Object.fromEntries(
            Object.entries(content).map(([type, schema]) => [
              type,
              { schema: z.toJSONSchema(schema, { unrepresentable: 'any' }) },
            ]),
          )
        : undefined;
      const ok = { description: 'OK', ...(okContent ? { content: okContent } : {}) };
      const statuses = [r.successStatus ?? 200].flat();
      op.responses = {
        ...Object.fromEntries(
          statuses.map((status) => [
            String(status),
            { ...ok, description: status === 201 ? 'Created' : 'OK' },
          ]),
        ),
        default: {
          description: 'Error',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      };
      paths[r.path] = { ...(paths[r.path] ?? {}), [r.method]: op };
    }
    return {
      openapi: '3.1.0',
      info: { title: 'Fieldline API', version },
      paths,
      components: {
        securitySchemes: SECURITY_SCHEMES,
        schemas: {
          Error: {
            type: 'object',
            required: ['error', 'message'],
            properties: { error: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    };
  }
}
