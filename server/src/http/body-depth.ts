import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.ts';

/** Deeper than any request the API defines (a mesh body's faces are five levels down). */
export const MAX_BODY_DEPTH = 64;

/**
 * The depth of a parsed JSON value, counted without recursion: JSON.parse accepts a body nested a million
 * levels deep, but JSON.stringify (storing a job's input) and recursive validators overflow the stack on it.
 */
export function exceedsDepth(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Refuses a JSON body nested deeper than MAX_BODY_DEPTH with a 400 before any route sees it. */
export function installBodyDepthLimit(app: FastifyInstance): void {
  // A callback hook: a request without a body (every poll) passes without a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    if (
      request.body !== null &&
      typeof request.body === 'object' &&
      exceedsDepth(request.body, MAX_BODY_DEPTH)
    )
      return done(
        new HttpError(
          400,
          'invalid_request',
          `The request body is nested more than ${MAX_BODY_DEPTH} levels deep.`,
          { status: 'error' },
        ),
      );
    done();
  });
}
