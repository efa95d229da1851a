import { z } from 'zod';

export const Vec3 = z.tuple([z.number(), z.number(), z.number()]);
export type Vec3 = z.infer<typeof Vec3>;

/** One body of a multi-body model (spec 001 §3). */
export const MeshBody = z.object({
  name: z.string(),
  vertices: z.array(Vec3),
  faces: z.array(z.array(z.number().int().nonnegative())),
  tetrahedra: z.array(z.array(z.number().int().nonnegative())).optional(),
  /** per triangle: the CAD face / surface patch it belongs to */
  face_patches: z.array(z.number().int().nonnegative()).optional(),
});
export type MeshBody = z.infer<typeof MeshBody>;

/**
 * Mesh data as the environment holds it and sends it to /api/fea/submit (spec 001 §3).
 * `faces` are surface triangles; `tetrahedra` exist once a volume mesh was generated.
 * `tetrahedron_regions` (one body id per tetrahedron) lets materials be assigned per body.
 */
export const MeshData = z
  .object({
    vertices: z.array(Vec3).default([]),
    faces: z.array(z.array(z.number().int().nonnegative())).default([]),
    tetrahedra: z.array(z.array(z.number().int().nonnegative())).optional(),
    tetrahedron_regions: z.array(z.number().int().nonnegative()).optional(),
    region_names: z.array(z.string()).optional(),
    animation: z.unknown().optional(),
    meshes: z.array(MeshBody).optional(),
    mesh_count: z.number().int().optional(),
    format: z.string().optional(),
    units: z.string().optional(),
    /** per surface triangle: CAD face / surface patch id (from convert-step or a meshing result) */
    face_patches: z.array(z.number().int().nonnegative()).optional(),
    /** mesh the original uploaded file (convert-step's upload_id) instead of these triangles */
    source_upload_id: z.string().optional(),
  })
  .passthrough();
export type MeshData = z.infer<typeof MeshData>;
