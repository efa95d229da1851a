import { z } from 'zod';

export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'delete' | 'patch';
  /** OpenAPI path, e.g. /api/fea/status/{jobId} */
  path: string;
  summary: string;
  tag: string;
  body?: z.ZodType;
  response?: z.ZodType;
  /** Content type of the success response when it is not JSON. */
  responseContentType?: string;
}

/**
 * Collects the documented routes. Routes register their contract schemas here, and the
 * OpenAPI document served at /api/docs is generated from the same zod schemas that validate.
 */
export class ApiRegistry {
  private readonly routes: RouteDoc[] = [];

  add(doc: RouteDoc): void {
    this.routes.push(doc);
  }

  document(version: string): Record<string, unknown> {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const r of this.routes) {
      const op: Record<string, unknown> = { summary: r.summary, tags: [r.tag] };
      const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
        name: m[1],
        in: 'path',
        required: true,
        schema: { type: 'string' },
      }));
      if (params.length > 0) op.parameters = params;
      if (r.body) {
        op.requestBody = {
          required: true,
          content: {
            'application/json': { schema: z.toJSONSchema(r.body, { io: 'input', unrepresentable: 'any' }) },
          },
        };
      }
      const okContent = r.response
        ? {
            [r.responseContentType ?? 'application/json']: {
              schema: z.toJSONSchema(r.response, { unrepresentable: 'any' }),
            },
          }
        : undefined;
      op.responses = {
        '200': { description: 'OK', ...(okContent ? { content: okContent } : {}) },
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
