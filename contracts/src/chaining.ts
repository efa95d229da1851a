import { z } from 'zod';
import { CHAINABLE_FIELD_NAMES } from './analysis/coupled.ts';
import type { MeshData } from './mesh.ts';

/**
 * Chained runs (docs/multiphysics.md §7): the mesh a job ran on is identified by a content hash, SHA-256 of
 * `meshHashBytes` (the server stores it with each analysis job; the environment computes the same one for
 * the model it shows, to list the jobs it may take fields from).
 */
export function meshHashBytes(mesh: Pick<MeshData, 'vertices' | 'tetrahedra' | 'units'>): Uint8Array {
  const tets = mesh.tetrahedra ?? [];
  const header = new TextEncoder().encode(
    `fieldline-mesh-v1|${mesh.units ?? 'm'}|${mesh.vertices.length}|${tets.length}|`,
  );
  const xyz = new Float64Array(mesh.vertices.length * 3);
  mesh.vertices.forEach((v, i) => {
    xyz.set(v, i * 3);
  });
  const ids = new Uint32Array(tets.length * 4);
  tets.forEach((t, i) => {
    ids.set(t.slice(0, 4), i * 4);
  });
  // Little-endian numbers on every platform we run (x86-64, arm64), as typed arrays lay them out.
  const out = new Uint8Array(header.length + xyz.byteLength + ids.byteLength);
  out.set(header, 0);
  out.set(new Uint8Array(xyz.buffer), header.length);
  out.set(new Uint8Array(ids.buffer), header.length + xyz.byteLength);
  return out;
}

export const MESH_HASH_PATTERN = /^[0-9a-f]{64}$/;

/** GET /api/fea/chain-sources: the caller's completed jobs on this mesh that hold a field. */
export const ChainSourcesQuery = z.object({
  mesh_hash: z.string().regex(MESH_HASH_PATTERN, 'a SHA-256 hex digest (64 characters)'),
  field: z.enum(CHAINABLE_FIELD_NAMES),
});
export type ChainSourcesQuery = z.infer<typeof ChainSourcesQuery>;

export const ChainSource = z.object({
  job_id: z.string(),
  analysis_type: z.string(),
  finished_at: z.string().nullable(),
  /** a transient source's frame count (0 for a steady one) */
  frames: z.number().int().nonnegative(),
  /** the source's largest temperature (K) or von Mises stress (Pa), as its quantities give them */
  max_temperature_K: z.number().nullable(),
  max_von_mises_Pa: z.number().nullable(),
});
export type ChainSource = z.infer<typeof ChainSource>;

export const ChainSourcesResponse = z.object({ jobs: z.array(ChainSource) });
export type ChainSourcesResponse = z.infer<typeof ChainSourcesResponse>;
