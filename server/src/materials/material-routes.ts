import { Material } from '@fieldline/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';

export const MaterialsResponse = z.object({ materials: z.array(Material) });

/** GET /api/materials: the material library the forms offer (built-in + MATERIALS_FILE). Public. */
export function registerMaterialRoutes(app: FastifyInstance, ctx: AppContext): void {
  ctx.api.add({
    method: 'get',
    path: '/api/materials',
    summary: 'The material library: SI properties for every physics family',
    tag: 'fea',
    response: MaterialsResponse,
  });
  app.get('/api/materials', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return { materials: ctx.materials.all() };
  });
}
