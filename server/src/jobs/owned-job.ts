import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import { z } from 'zod';
import { notFound } from '../http/errors.ts';
import { parsedPartsOf } from '../http/route.ts';
import { type JobOwner, ownerOfRequest } from './job-owner.ts';
import type { JobRow } from './job-service.ts';

/** Path parameters of a route about one job; a malformed id is answered like someone else's job. */
export const JobParams = z.object({ jobId: z.uuid() });

export interface OwnedJobs {
  findOwned(id: string, owner: JobOwner): Promise<JobRow | null>;
}

const loaded = new WeakMap<FastifyRequest, JobRow>();

/**
 * The pre-handler of a route about one of the caller's jobs (declared with `params: JobParams`): it
 * loads the job `{jobId}` if the caller (session or API token) owns it and answers 404 `notFoundMessage` otherwise,
 * so someone else's job looks exactly like one that does not exist. The handler reads it with `jobOf`.
 */
export function ownedJob(
  jobs: OwnedJobs,
  notFoundMessage: string | ((request: FastifyRequest) => string),
): preHandlerHookHandler {
  const refuse = (request: FastifyRequest) =>
    notFound(typeof notFoundMessage === 'string' ? notFoundMessage : notFoundMessage(request));
  return async (request) => {
    const params = parsedPartsOf(request)?.params as { jobId?: string } | undefined;
    const owner = ownerOfRequest(request);
    const job = owner && params?.jobId ? await jobs.findOwned(params.jobId, owner) : null;
    if (!job) throw refuse(request);
    loaded.set(request, job);
  };
}

/** The job `ownedJob` loaded for this request. */
export function jobOf(request: FastifyRequest): JobRow {
  const job = loaded.get(request);
  if (!job) throw new Error('jobOf: the route has no ownedJob pre-handler');
  return job;
}
