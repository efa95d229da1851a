import {
  CancelStudyResponse,
  CreateStudyRequest,
  CreateStudyResponse,
  StudyListResponse,
  StudyParams,
  StudyResponse,
  StudyTableQuery,
  StudyTableResponse,
} from '@fieldline/contracts';
import { z } from 'zod';
import { requireUser } from '../accounts/guards.ts';
import { testHooks } from '../fea/fea-routes.ts';
import { compressStream } from '../http/compress-stream.ts';
import { fieldError, notFound } from '../http/errors.ts';
import type { Route } from '../http/route.ts';
import type { StudyService } from './study-service.ts';

/** A malformed study id is answered like an unknown one. */
const studyNotFound = (part: string, error: z.ZodError) =>
  part === 'params' ? notFound('Study not found') : fieldError(error);

/** Design studies (docs/studies.md). Routes parse, call the service, shape the reply. */
export function registerStudyRoutes(
  route: Route,
  studies: StudyService,
  /** ENGINE_TEST_HOOKS=1 (tests only): `x-test-sleep-seconds` makes every point's engine wait first. */
  engineTestHooks = false,
): void {
  route({
    method: 'post',
    path: '/api/fea/studies',
    summary:
      'Create a design study: a parameter sweep or a mesh-convergence study, each point an ordinary job',
    tag: 'studies',
    auth: requireUser,
    body: CreateStudyRequest,
    response: CreateStudyResponse,
    successStatus: 201,
    handler: async ({ body, auth: user }, request, reply) => {
      const declared = Number(request.headers['content-length']);
      const modelBytes = Number.isFinite(declared) && declared > 0 ? declared : 0;
      const created = await studies.create(user.id, body, modelBytes, testHooks(engineTestHooks, request));
      return reply.code(201).send(created);
    },
  });

  route({
    method: 'post',
    path: '/api/fea/studies/estimate',
    summary: 'Check a study as POST /api/fea/studies would and estimate it, without creating anything',
    tag: 'studies',
    auth: requireUser,
    body: CreateStudyRequest,
    response: CreateStudyResponse,
    handler: ({ body, auth: user }, request) => {
      const declared = Number(request.headers['content-length']);
      return studies.create(user.id, body, Number.isFinite(declared) ? declared : 0, undefined, true);
    },
  });

  route({
    method: 'get',
    path: '/api/fea/studies',
    summary: "The caller's studies, newest first, with their progress",
    tag: 'studies',
    auth: requireUser,
    response: StudyListResponse,
    handler: async ({ auth: user }, _request, reply) => {
      reply.header('cache-control', 'no-store');
      return { studies: await studies.list(user.id) };
    },
  });

  route({
    method: 'get',
    path: '/api/fea/studies/{studyId}',
    summary: 'A study with its points: parameters, status, job and outputs of each',
    tag: 'studies',
    auth: requireUser,
    params: StudyParams,
    invalid: studyNotFound,
    response: StudyResponse,
    handler: async ({ params, auth: user }, _request, reply) => {
      reply.header('cache-control', 'no-store');
      return studies.get(user.id, params.studyId);
    },
  });

  route({
    method: 'get',
    path: '/api/fea/studies/{studyId}/table',
    summary: 'The study as a table: a header row, then one row per point (?format=json|csv)',
    tag: 'studies',
    auth: requireUser,
    params: StudyParams,
    query: StudyTableQuery,
    invalid: studyNotFound,
    responseContent: {
      'application/json': StudyTableResponse,
      'text/csv': z.string().meta({ description: 'The same table as CSV' }),
    },
    handler: async ({ params, query, auth: user }, request, reply) => {
      // streamed a page of points at a time (the study is looked up first: a 404 before any byte),
      // compressed as it streams by Accept-Encoding
      const table = await studies.table(user.id, params.studyId, query.format);
      reply.header('cache-control', 'no-store');
      if (query.format === 'json') reply.header('content-type', 'application/json; charset=utf-8');
      else {
        const fileName = `study_${table.name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || params.studyId}.csv`;
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${fileName}"`);
      }
      return reply.send(compressStream(request, reply, table.body));
    },
  });

  route({
    method: 'post',
    path: '/api/fea/studies/{studyId}/cancel',
    summary: 'Cancel a study: waiting points cancelled, running ones stopped, finished ones kept',
    tag: 'studies',
    auth: requireUser,
    params: StudyParams,
    invalid: studyNotFound,
    response: CancelStudyResponse,
    handler: ({ params, auth: user }) => studies.cancel(user.id, params.studyId),
  });
}
