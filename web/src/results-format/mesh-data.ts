import type { ViewerMesh } from '@fieldline/contracts';
import { viewerPayloadFromResultsJson } from './results-json.ts';

/**
 * A mesh as the environment holds it (spec 001 §3 Mesh data: vertices/faces/tetrahedra, or the
 * multi-body form with `meshes`) → ViewerMesh. Multi-body surfaces keep one body per entry of `meshes`;
 * face ids then count through the bodies in order.
 */
export function viewerMeshFromMeshData(meshData: unknown): ViewerMesh {
  const data = (meshData ?? {}) as Record<string, unknown>;
  const bodies = Array.isArray(data.meshes) ? data.meshes : [];
  const singleHasGeometry = Array.isArray(data.vertices) && data.vertices.length > 0;
  if (!singleHasGeometry && bodies.length > 0) {
    return viewerPayloadFromResultsJson({
      type: 'multi_body',
      results: bodies.map((body: { name?: string }) => ({
        success: true,
        mesh_name: body?.name,
        result_data: body,
      })),
    }).mesh;
  }
  return viewerPayloadFromResultsJson(data).mesh;
}
