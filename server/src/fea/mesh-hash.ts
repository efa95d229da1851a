import { createHash } from 'node:crypto';
import type { MeshData } from '@fieldline/contracts';

/**
 * The content hash of an analysis mesh: its vertices (float64), tetrahedra (uint32) and length unit. Two
 * jobs with the same hash solved on the same nodes in the same order, so one's vertex fields are the
 * other's (fieldsFrom). Faces and region names do not enter: the engine re-derives the surface, and a
 * field lives on vertices and tetrahedra.
 */
export function meshHash(mesh: MeshData): string {
  const hash = createHash('sha256');
  hash.update(
    `fieldline-mesh-v1|${mesh.units ?? 'm'}|${mesh.vertices.length}|${mesh.tetrahedra?.length ?? 0}|`,
  );
  const chunk = 65_536;
  for (let start = 0; start < mesh.vertices.length; start += chunk) {
    const part = mesh.vertices.slice(start, start + chunk);
    const xyz = new Float64Array(part.length * 3);
    part.forEach((v, i) => {
      xyz.set(v, i * 3);
    });
    hash.update(new Uint8Array(xyz.buffer));
  }
  const tets = mesh.tetrahedra ?? [];
  for (let start = 0; start < tets.length; start += chunk) {
    const part = tets.slice(start, start + chunk);
    const ids = new Uint32Array(part.length * 4);
    part.forEach((t, i) => {
      ids.set(t.slice(0, 4), i * 4);
    });
    hash.update(new Uint8Array(ids.buffer));
  }
  return hash.digest('hex');
}
