import { createHash } from 'node:crypto';
import { type MeshData, meshHashBytes } from '@fieldline/contracts';

/**
 * The content hash of an analysis mesh: SHA-256 of its vertices (float64), tetrahedra (uint32) and length
 * unit (contracts `meshHashBytes`, which the environment hashes too). Two jobs with the same hash solved on
 * the same nodes in the same order, so one's vertex fields are the other's (fieldsFrom). Faces and region
 * names do not enter: the engine re-derives the surface, and a field lives on vertices and tetrahedra.
 */
export function meshHash(mesh: MeshData): string {
  return createHash('sha256').update(meshHashBytes(mesh)).digest('hex');
}
