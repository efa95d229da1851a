import {
  ConvertResponse,
  LENGTH_UNITS,
  ProblemMarkersPayload,
  SaveResponse,
  UPLOAD_EXTENSIONS,
} from '@fieldline/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { CurrentUser } from '../accounts/user-store.ts';
import { HttpError, notFound } from '../http/errors.ts';
import type { Route } from '../http/route.ts';
import { ownerForWrite, ownerOfRequest } from '../jobs/job-owner.ts';
import type { JobService } from '../jobs/job-service.ts';
import { JobParams, jobOf, ownedJob } from '../jobs/owned-job.ts';
import type { SessionCookieOptions } from '../sessions/session-plugin.ts';
import type { SessionService } from '../sessions/session-service.ts';
import { type ConvertService, checkUploadName } from './convert-service.ts';
import { receiveUpload } from './multipart-upload.ts';
import type { ProblemMarkersService } from './problem-markers.ts';
import type { UploadLimit } from './upload-limits.ts';
import type { UploadService } from './upload-service.ts';
import { removeScratch } from './upload-store.ts';

const MarkersQuery = z.object({ job_id: z.uuid().optional() });
const UploadParams = z.object({ id: z.string() });
const NO_MARKERS = 'No problem markers for this job';

function sendMarkers(reply: FastifyReply, json: string) {
  return reply
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'no-store, no-cache, must-revalidate')
    .header('pragma', 'no-cache')
    .send(json);
}

export interface GeometryRouteDeps {
  convert: ConvertService;
  markers: ProblemMarkersService;
  uploads: UploadService;
  uploadLimitFor: (user: CurrentUser | null) => Promise<UploadLimit>;
  jobs: JobService;
  sessions: SessionService;
  sessionCookie: SessionCookieOptions;
}

/**
 * The multipart form of POST /api/convert-step, for /api/docs only: `receiveUpload` and the convert
 * service read it (streamed, size-limited) and refuse what does not fit.
 */
const ConvertUploadForm = z.object({
  file: z.string().meta({
    format: 'binary',
    description: `The model; its file name ends in .${UPLOAD_EXTENSIONS.filter((e) => e !== 'json').join(', .')}`,
  }),
  force_tet: z
    .string()
    .optional()
    .meta({ description: 'Sent by the spec 001 client; accepted and not used' }),
  units: z.enum(LENGTH_UNITS).optional().meta({ description: 'Length unit of STL/OBJ files (default mm)' }),
});

/** Upload + conversion (spec 001 §7 convert-step), saving uploads, and meshing diagnostics (problem markers). */
export function registerGeometryRoutes(route: Route, deps: GeometryRouteDeps): void {
  const { convert, markers, uploads } = deps;

  route({
    method: 'post',
    path: '/api/convert-step',
    summary:
      'Upload STEP/STP/STL/OBJ/ZIP (multipart: file, force_tet, units for STL/OBJ) and get its surface; the file is kept as an upload',
    tag: 'geometry',
    requestContent: { 'multipart/form-data': ConvertUploadForm },
    response: ConvertResponse,
    handler: async (_input, request, reply) => {
      const owner = await ownerForWrite(request, reply, deps.sessions, deps.sessionCookie);
      const limit = await deps.uploadLimitFor(request.user);
      const scratch = await uploads.store.scratchDir();
      try {
        const upload = await receiveUpload(request, scratch, limit.bytes, limit.message, (name) =>
          checkUploadName(name),
        );
        return await convert.convert(owner, upload, scratch);
      } finally {
        await removeScratch(scratch);
      }
    },
  });

  route({
    method: 'post',
    path: '/api/uploads/{id}/save',
    summary: 'Keep an upload past the retention period',
    tag: 'uploads',
    params: UploadParams,
    response: SaveResponse,
    handler: async ({ params }, request) => {
      const owner = ownerOfRequest(request);
      const upload = owner ? await uploads.findOwned(params.id, owner) : null;
      if (!upload) throw notFound('Upload not found');
      await uploads.markSaved(upload.id);
      return {
        upload_id: upload.id,
        saved: true,
        message: 'Saved: this upload is kept until you delete it.',
      };
    },
  });

  route({
    method: 'get',
    path: '/api/fea/results/{jobId}/problem-markers',
    summary:
      'Problem markers of a failed meshing job (the offending triangles and vertices, with a sentence each)',
    tag: 'fea',
    params: JobParams,
    invalid: () => notFound(NO_MARKERS),
    preHandler: ownedJob(deps.jobs, NO_MARKERS),
    response: ProblemMarkersPayload,
    handler: async (_input, request, reply) => {
      const json = await markers.forJob(jobOf(request));
      if (!json) throw notFound(NO_MARKERS);
      return sendMarkers(reply, json);
    },
  });

  const noDiagnostics = () =>
    new HttpError(404, 'not_found', 'No meshing diagnostics available', {}, { 'cache-control': 'no-store' });
  route({
    method: 'get',
    path: '/results/tetra_output.json',
    summary:
      "Problem markers of the caller's latest failed meshing job, or of ?job_id= (spec 001 §7; never cached)",
    tag: 'fea',
    query: MarkersQuery,
    invalid: noDiagnostics,
    response: ProblemMarkersPayload,
    handler: async ({ query }, request, reply) => {
      const owner = ownerOfRequest(request);
      // `?job_id=` names the job (the environment sends it); without it, the latest failure.
      const json = !owner
        ? null
        : query.job_id
          ? await markers.forJobId(query.job_id, owner)
          : await markers.latest(owner);
      if (!json) throw noDiagnostics();
      return sendMarkers(reply, json);
    },
  });
}
