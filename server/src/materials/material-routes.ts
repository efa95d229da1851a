import { Material } from '@fieldline/contracts';
import { z } from 'zod';
import type { Route } from '../http/route.ts';
import type { MaterialLibrary } from './material-library.ts';

export const MaterialsResponse = z.object({ materials: z.array(Material) });

/** GET /api/materials: the material library the forms offer (built-in + MATERIALS_FILE). Public. */
export function registerMaterialRoutes(route: Route, materials: MaterialLibrary): void {
  route({
    method: 'get',
    path: '/api/materials',
    summary: 'The material library: SI properties for every physics family',
    tag: 'fea',
    response: MaterialsResponse,
    handler: (_input, _request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { materials: materials.all() };
    },
  });
}
