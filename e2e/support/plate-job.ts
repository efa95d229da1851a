import { boxMesh, facesOnPlane } from '../../server/test/support/box-mesh.ts';

/**
 * Submits a parallel-plate capacitor through the API as a signed-in user: a box `size` (m) of `cells`
 * with its z = 0 face at 0 V and its top at `volts`, so |E| = volts / size[2] everywhere. Returns the
 * response of POST /api/fea/submit.
 */
export function submitPlateCapacitor(
  origin: string,
  cookie: string,
  size: [number, number, number],
  cells: [number, number, number],
  volts: number,
): Promise<Response> {
  const mesh = boxMesh(size, cells);
  return fetch(`${origin}/api/fea/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, cookie },
    body: JSON.stringify({
      mesh_data: mesh,
      config: {
        analysisType: 'em',
        dirichletFaceConditions: [
          { faces: facesOnPlane(mesh, 2, 0), voltage: 0 },
          { faces: facesOnPlane(mesh, 2, size[2]), voltage: volts },
        ],
      },
    }),
  });
}
