import { ConvertResponse, ProblemMarkersPayload } from '@fieldline/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { ownerOf } from '../jobs/job-owner.ts';
import { ensureSession } from '../sessions/session-plugin.ts';
import { ConvertService, checkUploadName } from './convert-service.ts';
import { receiveUpload } from './multipart-upload.ts';
import { ProblemMarkersService } from './problem-markers.ts';
import { uploadLimitFor } from './upload-limits.ts';
import { removeScratch } from './upload-store.ts';

const JobParams = z.object({ jobId: z.string().uuid() });

function sendMarkers(reply: FastifyReply, json: string) {
  return reply
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'no-store, no-cache, must-revalidate')
    .header('pragma', 'no-cache')
    .send(json);
}

/** Upload + conversion (spec 001 §7 convert-step) and meshing diagnostics (problem markers). */
export function registerGeometryRoutes(app: FastifyInstance, ctx: AppContext): void {
  const convert = new ConvertService(ctx);
  const markers = new ProblemMarkersService(ctx);

  ctx.api.add({
    method: 'post',
    path: '/api/convert-step',
    summary:
      'Upload STEP/STP/STL/OBJ/ZIP (multipart: file, force_tet, units for STL/OBJ) and get its surface; the file is kept as an upload',
    tag: 'geometry',
    response: ConvertResponse,
  });
  app.post('/api/convert-step', async (request, reply) => {
    const session = await ensureSession(request, reply, ctx.sessions, ctx.sessionCookie);
    const limit = await uploadLimitFor(request.user, ctx);
    const scratch = await ctx.uploads.store.scratchDir();
    try {
      const upload = await receiveUpload(request, scratch, limit.bytes, limit.message, (name) =>
        checkUploadName(name),
      );
      return await convert.convert(ownerOf(session), upload, scratch);
    } finally {
      await removeScratch(scratch);
    }
  });

  ctx.api.add({
    method: 'get',
    path: '/api/fea/results/{jobId}/problem-markers',
    summary:
      'Problem markers of a failed meshing job (the offending triangles and vertices, with a sentence each)',
    tag: 'fea',
    response: ProblemMarkersPayload,
  });
  app.get('/api/fea/results/:jobId/problem-markers', async (request, reply) => {
    const parsed = JobParams.safeParse(request.params);
    const owner = request.session ? ownerOf(request.session) : null;
    const json = parsed.success && owner ? await markers.forJob(parsed.data.jobId, owner) : null;
    if (!json) throw notFound('No problem markers for this job');
    return sendMarkers(reply, json);
  });

  ctx.api.add({
    method: 'get',
    path: '/results/tetra_output.json',
    summary:
      "Problem markers of the caller's latest failed meshing job, or of ?job_id= (spec 001 §7; never cached)",
    tag: 'fea',
    response: ProblemMarkersPayload,
  });
  app.get('/results/tetra_output.json', async (request, reply) => {
    const owner = request.session ? ownerOf(request.session) : null;
    // `?job_id=` names the job (the environment sends it); without it, the latest failure.
    const query = z.object({ job_id: z.string().uuid().optional() }).safeParse(request.query);
    const jobId = query.success ? query.data.job_id : undefined;
    const json =
      !owner || !query.success
        ? null
        : jobId
          ? await markers.forJob(jobId, owner)
          : await markers.latest(owner);
    if (!json) {
      throw new HttpError(
        404,
        'not_found',
        'No meshing diagnostics available',
        {},
        { 'cache-control': 'no-store' },
      );
    }
    return sendMarkers(reply, json);
  });
}
