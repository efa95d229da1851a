import {
  CancelResponse,
  DownloadQuery,
  HealthResponse,
  JobStatusResponse,
  SaveResponse,
  SubmitRequest,
  SubmitResponse,
} from '@fieldline/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { HttpError, notFound, parseWith } from '../http/errors.ts';
import { ownerOf } from '../jobs/job-owner.ts';
import { ensureSession } from '../sessions/session-plugin.ts';
import { FeaService } from './fea-service.ts';
import { etagMatches, identityOf, pickEncoding } from './status-replies.ts';

const JobParams = z.object({ jobId: z.string().uuid() });

/** Spec 001 §7 simulator calls. Routes parse, call the service, shape the reply. */
export function registerFeaRoutes(app: FastifyInstance, ctx: AppContext): void {
  const fea = new FeaService(ctx);
  const api = ctx.api;

  api.add({
    method: 'get',
    path: '/api/fea/health',
    summary: 'Engine and queue health',
    tag: 'fea',
    response: HealthResponse,
  });
  app.get('/api/fea/health', async () => fea.health());

  api.add({
    method: 'post',
    path: '/api/fea/submit',
    summary: 'Submit a meshing or analysis job',
    tag: 'fea',
    body: SubmitRequest,
    response: SubmitResponse,
  });
  app.post('/api/fea/submit', async (request, reply) => {
    const body = parseSubmit(request.body);
    const session = await ensureSession(request, reply, ctx.sessions, ctx.sessionCookie);
    const declared = Number(request.headers['content-length']);
    const modelBytes =
      Number.isFinite(declared) && declared > 0 ? declared : Buffer.byteLength(JSON.stringify(request.body));
    return fea.submit(
      ownerOf(session),
      body.mesh_data,
      body.config,
      modelBytes,
      testHooks(ctx, request.headers),
    );
  });

  api.add({
    method: 'get',
    path: '/api/fea/status/{jobId}',
    summary: 'Job status, progress and, when completed, results',
    tag: 'fea',
    response: JobStatusResponse,
  });
  // Polled every 2 s by every open environment: cached session and status, ETag, compressed results.
  app.get('/api/fea/status/:jobId', { config: { cachedAuth: true } }, async (request, reply) => {
    const { jobId } = parseJobParams(request.params);
    const owner = request.session ? ownerOf(request.session) : null;
    const status = owner ? await fea.statusReply(jobId, owner) : null;
    if (!status) throw notFound('Job not found');
    reply
      .header('cache-control', 'private, no-cache')
      .header('etag', status.etag)
      .header('vary', 'Accept-Encoding');
    if (etagMatches(request.headers['if-none-match'], status.etag)) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    if (status.kind === 'json') return reply.send(status.body);
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (encoding === 'identity') return reply.send(await identityOf(status.body));
    return reply.header('content-encoding', encoding).send(status.body[encoding]);
  });

  api.add({
    method: 'get',
    path: '/api/fea/download/{jobId}',
    summary: 'Download the results file (?format=json), or the S-parameters (?format=touchstone|csv)',
    tag: 'fea',
    responseContentType: 'application/json',
  });
  app.get('/api/fea/download/:jobId', async (request, reply) => {
    const { jobId } = parseJobParams(request.params);
    const { format } = parseWith(DownloadQuery, request.query);
    const owner = request.session ? ownerOf(request.session) : null;
    if (format !== 'json') {
      const exported = owner ? await fea.networkExport(jobId, owner, format) : null;
      if (!exported) throw notFound('No S-parameters for this job');
      return reply
        .header('content-type', exported.contentType)
        .header('content-disposition', `attachment; filename="${exported.fileName}"`)
        .send(exported.body);
    }
    const file = owner ? await fea.resultsFile(jobId, owner) : null;
    if (!file) throw notFound('Results not found');
    return reply
      .header('content-type', 'application/json')
      .header('content-disposition', `attachment; filename="fea_results_${jobId}.json"`)
      .send(file);
  });

  api.add({
    method: 'post',
    path: '/api/fea/cancel/{jobId}',
    summary: 'Cancel a queued or running job (time already used is charged)',
    tag: 'fea',
    response: CancelResponse,
  });
  app.post('/api/fea/cancel/:jobId', async (request) => {
    const { jobId } = parseJobParams(request.params);
    const owner = request.session ? ownerOf(request.session) : null;
    const result = owner ? await fea.cancel(jobId, owner) : null;
    if (!result) throw notFound('Job not found');
    return result;
  });

  api.add({
    method: 'post',
    path: '/api/fea/save/{jobId}',
    summary: 'Keep a job’s input and results past the retention period',
    tag: 'fea',
    response: SaveResponse,
  });
  app.post('/api/fea/save/:jobId', async (request) => {
    const { jobId } = parseJobParams(request.params);
    const owner = request.session ? ownerOf(request.session) : null;
    const result = owner ? await fea.save(jobId, owner) : null;
    if (!result) throw notFound('Job not found');
    return result;
  });

  api.add({
    method: 'get',
    path: '/api/fea/results/{jobId}/binary',
    summary: 'The results as binary arrays for the viewer (results.bin; see docs/results-binary.md)',
    tag: 'fea',
    responseContentType: 'application/octet-stream',
  });
  app.get('/api/fea/results/:jobId/binary', async (request, reply) => {
    const { jobId } = parseJobParams(request.params);
    const owner = request.session ? ownerOf(request.session) : null;
    const file = owner ? await fea.resultsBinary(jobId, owner) : null;
    if (!file) throw notFound('Results not found');
    return reply
      .header('content-type', 'application/octet-stream')
      .header('cache-control', 'private, no-store')
      .send(file);
  });

  api.add({
    method: 'get',
    path: '/api/fea/results/{jobId}/info',
    summary: 'What a job produced',
    tag: 'fea',
  });
  app.get('/api/fea/results/:jobId/info', async (request) => {
    const { jobId } = parseJobParams(request.params);
    const owner = request.session ? ownerOf(request.session) : null;
    const info = owner ? await fea.resultsInfo(jobId, owner) : null;
    if (!info) throw notFound('Job not found');
    return info;
  });
}

/**
 * Test-only (ENGINE_TEST_HOOKS=1, never in production): `x-test-sleep-seconds` makes the engine wait
 * before its real solve, so queue tests get jobs of controllable duration.
 */
function testHooks(ctx: AppContext, headers: Record<string, unknown>): { sleep_seconds: number } | undefined {
  if (!ctx.config.compute.engineTestHooks) return undefined;
  const raw = Number(headers['x-test-sleep-seconds']);
  return Number.isFinite(raw) && raw > 0 ? { sleep_seconds: raw } : undefined;
}

/** A refused submission answers `status: "error"` like the service's refusals (spec 001 §7 reads it). */
function parseSubmit(body: unknown): SubmitRequest {
  try {
    return parseWith(SubmitRequest, body);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    throw new HttpError(err.statusCode, err.code, err.message, { ...err.extra, status: 'error' });
  }
}

function parseJobParams(params: unknown): { jobId: string } {
  const parsed = JobParams.safeParse(params);
  if (!parsed.success) throw notFound('Job not found');
  return parsed.data;
}
