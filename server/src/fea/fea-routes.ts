import {
  CancelResponse,
  ChainSourcesQuery,
  ChainSourcesResponse,
  DownloadQuery,
  HealthResponse,
  JobStatusResponse,
  ResultsInfoResponse,
  SaveResponse,
  SubmitRequest,
  SubmitResponse,
} from '@fieldline/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../accounts/guards.ts';
import { compressStream } from '../http/compress-stream.ts';
import { fieldError, HttpError, notFound } from '../http/errors.ts';
import { bodyForMethod } from '../http/head-body.ts';
import type { Route } from '../http/route.ts';
import { ownerForWrite, ownerOfRequest } from '../jobs/job-owner.ts';
import type { JobService } from '../jobs/job-service.ts';
import { JobParams, jobOf, ownedJob } from '../jobs/owned-job.ts';
import type { SessionCookieOptions } from '../sessions/session-plugin.ts';
import type { SessionService } from '../sessions/session-service.ts';
import type { ChainSources } from './chain-sources.ts';
import type { FeaService, TestHooks } from './fea-service.ts';
import { etagMatches, identityStream, pickEncoding } from './status-replies.ts';

/** A malformed job id is answered like an unknown job; a bad query is a 400 naming the field. */
const jobNotFound = (message: string) => (part: string, error: z.ZodError) =>
  part === 'params' ? notFound(message) : fieldError(error);

/** A refused submission answers `status: "error"` like the service's refusals (spec 001 §7 reads it). */
const submitRefused = (_part: string, error: z.ZodError) => {
  const err = fieldError(error);
  return new HttpError(err.statusCode, err.code, err.message, { status: 'error' });
};

export interface FeaRouteDeps {
  fea: FeaService;
  jobs: JobService;
  sessions: SessionService;
  sessionCookie: SessionCookieOptions;
  /** ENGINE_TEST_HOOKS=1 (tests only): honour `x-test-sleep-seconds` on submit. */
  engineTestHooks: boolean;
  chainSources: ChainSources;
}

/** Spec 001 §7 simulator calls. Routes parse, call the service, shape the reply. */
export function registerFeaRoutes(route: Route, deps: FeaRouteDeps): void {
  const { fea, jobs } = deps;

  route({
    method: 'get',
    path: '/api/fea/health',
    summary: 'Engine and queue health',
    tag: 'fea',
    response: HealthResponse,
    handler: () => fea.health(),
  });

  route({
    method: 'post',
    path: '/api/fea/submit',
    summary: 'Submit a meshing or analysis job',
    tag: 'fea',
    body: SubmitRequest,
    invalid: submitRefused,
    response: SubmitResponse,
    handler: async ({ body }, request, reply) => {
      const owner = await ownerForWrite(request, reply, deps.sessions, deps.sessionCookie);
      const declared = Number(request.headers['content-length']);
      const modelBytes =
        Number.isFinite(declared) && declared > 0
          ? declared
          : Buffer.byteLength(JSON.stringify(request.body));
      return fea.submit(
        owner,
        body.mesh_data,
        body.config,
        modelBytes,
        testHooks(deps.engineTestHooks, request),
      );
    },
  });

  route({
    method: 'get',
    path: '/api/fea/chain-sources',
    summary:
      "The caller's completed jobs on a mesh (its content hash, contracts meshHashBytes) whose results hold a field a chained run can take (fieldsFrom), newest first, with their peak temperature or stress",
    tag: 'fea',
    auth: requireUser,
    query: ChainSourcesQuery,
    response: ChainSourcesResponse,
    handler: async ({ query, auth: user }, _request, reply) => {
      reply.header('cache-control', 'no-store');
      return { jobs: await deps.chainSources.list({ userId: user.id, sessionHash: null }, query) };
    },
  });

  // Polled every 2 s by every open environment: cached session and status (the cache checks the
  // owner, without a database read), ETag, compressed results.
  route({
    method: 'get',
    path: '/api/fea/status/{jobId}',
    summary: 'Job status, progress and, when completed, results',
    tag: 'fea',
    params: JobParams,
    invalid: jobNotFound('Job not found'),
    response: JobStatusResponse,
    config: { cachedAuth: true },
    handler: async ({ params }, request, reply) => {
      const owner = ownerOfRequest(request);
      const status = owner ? await fea.statusReply(params.jobId, owner) : null;
      if (!status) throw notFound('Job not found');
      reply
        .header('cache-control', 'private, no-cache')
        .header('etag', status.etag)
        .header('vary', 'Accept-Encoding');
      if (etagMatches(request.headers['if-none-match'], status.etag)) return reply.code(304).send();
      reply.type('application/json; charset=utf-8');
      if (status.kind === 'json') return reply.send(status.body);
      const encoding = pickEncoding(request.headers['accept-encoding']);
      // Streamed: a stalled reader never makes the server hold a whole uncompressed copy.
      if (encoding === 'identity')
        return reply.header('content-length', String(status.body.length)).send(identityStream(status.body));
      return reply.header('content-encoding', encoding).send(status.body[encoding]);
    },
  });

  const downloadMissing = (request: FastifyRequest) =>
    (request.query as { format?: string } | undefined)?.format &&
    (request.query as { format?: string }).format !== 'json'
      ? 'No S-parameters for this job'
      : 'Results not found';
  route({
    method: 'get',
    path: '/api/fea/download/{jobId}',
    summary: 'Download the results file (?format=json), or the S-parameters (?format=touchstone|csv)',
    tag: 'fea',
    params: JobParams,
    query: DownloadQuery,
    invalid: (part, error, request) =>
      part === 'params' ? notFound(downloadMissing(request)) : fieldError(error),
    preHandler: ownedJob(jobs, downloadMissing),
    responseContent: {
      'application/json': z
        .looseObject({})
        .meta({ description: 'The results file (docs/multiphysics.md: named fields and quantities)' }),
      'text/plain': z.string().meta({ description: 'Touchstone (.sNp)' }),
      'text/csv': z.string().meta({ description: 'S-parameters as CSV' }),
    },
    handler: async ({ params, query }, request, reply) => {
      const job = jobOf(request);
      if (query.format !== 'json') {
        const exported = await fea.networkExport(job, query.format);
        if (!exported) throw notFound('No S-parameters for this job');
        reply
          .header('content-type', exported.contentType)
          .header('content-disposition', `attachment; filename="${exported.fileName}"`);
        return reply.send(compressStream(request, reply, exported.file.body, exported.file.bytes));
      }
      // Streamed from storage as the client reads (issue 37), compressed by Accept-Encoding.
      const file = await fea.resultsFile(job);
      if (!file) throw notFound('Results not found');
      reply
        .header('content-type', 'application/json')
        .header('content-disposition', `attachment; filename="fea_results_${params.jobId}.json"`);
      return reply.send(compressStream(request, reply, file.body, file.bytes));
    },
  });

  route({
    method: 'post',
    path: '/api/fea/cancel/{jobId}',
    summary: 'Cancel a queued or running job (time already used is charged)',
    tag: 'fea',
    params: JobParams,
    invalid: jobNotFound('Job not found'),
    preHandler: ownedJob(jobs, 'Job not found'),
    response: CancelResponse,
    handler: (_input, request) => fea.cancel(jobOf(request)),
  });

  route({
    method: 'post',
    path: '/api/fea/save/{jobId}',
    summary: 'Keep a job’s input and results past the retention period',
    tag: 'fea',
    params: JobParams,
    invalid: jobNotFound('Job not found'),
    preHandler: ownedJob(jobs, 'Job not found'),
    response: SaveResponse,
    handler: (_input, request) => fea.save(jobOf(request)),
  });

  route({
    method: 'get',
    path: '/api/fea/results/{jobId}/binary',
    summary: 'The results as binary arrays for the viewer (results.bin; see docs/results-binary.md)',
    tag: 'fea',
    params: JobParams,
    invalid: jobNotFound('Results not found'),
    preHandler: ownedJob(jobs, 'Results not found'),
    responseContent: {
      'application/octet-stream': z.string().meta({ contentMediaType: 'application/octet-stream' }),
    },
    handler: async (_input, request, reply) => {
      const file = await fea.resultsBinary(jobOf(request));
      if (!file) throw notFound('Results not found');
      // Streamed from storage as the client reads (issue 37); float arrays, not worth compressing.
      return reply
        .header('content-type', 'application/octet-stream')
        .header('cache-control', 'private, no-store')
        .header('content-length', String(file.bytes))
        .send(bodyForMethod(request, file.body));
    },
  });

  route({
    method: 'get',
    path: '/api/fea/results/{jobId}/info',
    summary: 'What a job produced',
    tag: 'fea',
    response: ResultsInfoResponse,
    params: JobParams,
    invalid: jobNotFound('Job not found'),
    preHandler: ownedJob(jobs, 'Job not found'),
    handler: (_input, request) => fea.resultsInfo(jobOf(request)),
  });
}

/**
 * Test-only (ENGINE_TEST_HOOKS=1, never in production): `x-test-sleep-seconds` makes the engine wait
 * before its real solve, so queue tests get jobs of controllable duration; `x-test-allocate-mb` makes it
 * allocate that much first (memory-limit tests).
 */
export function testHooks(enabled: boolean, request: FastifyRequest): TestHooks | undefined {
  if (!enabled) return undefined;
  const hooks: TestHooks = {};
  const seconds = Number(request.headers['x-test-sleep-seconds']);
  if (Number.isFinite(seconds) && seconds > 0) hooks.sleep_seconds = seconds;
  const megabytes = Number(request.headers['x-test-allocate-mb']);
  if (Number.isFinite(megabytes) && megabytes > 0) hooks.allocate_mb = megabytes;
  return Object.keys(hooks).length > 0 ? hooks : undefined;
}
