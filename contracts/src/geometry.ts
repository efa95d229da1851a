import { z } from 'zod';
import { MeshBody, Vec3 } from './mesh.ts';

export const LENGTH_UNITS = ['mm', 'cm', 'm', 'in', 'um', 'ft'] as const;
export const UPLOAD_EXTENSIONS = ['json', 'step', 'stp', 'stl', 'obj', 'zip'] as const;

/** Spec 001 §5, exactly. */
export const unsupportedFileTypeMessage = (ext: string) =>
  `Unsupported file type: ${ext}. Supported formats: JSON (mesh/FEA results), STEP, STL, OBJ, ZIP.`;

export const BoundingBox = z.object({ min: Vec3, max: Vec3 });

/**
 * POST /api/convert-step response (spec 001 §3 Converted model response): faces + vertices, or the
 * multi-body form. `upload_id` names the stored upload so the meshing job can mesh the original CAD
 * (pass it as mesh_data.source_upload_id); `units` and `bounding_box` let the UI show the size.
 */
export const ConvertResponse = z
  .object({
    vertices: z.array(Vec3).optional(),
    faces: z.array(z.array(z.number().int().nonnegative())).optional(),
    meshes: z.array(MeshBody).optional(),
    mesh_count: z.number().int().optional(),
    format: z.literal('multi-body').optional(),
    units: z.enum(LENGTH_UNITS),
    bounding_box: BoundingBox,
    upload_id: z.string(),
    /** per triangle: the CAD face (or smooth surface patch) it belongs to, for picking whole faces */
    face_patches: z.array(z.number().int().nonnegative()).optional(),
    repairs: z.array(z.string()).optional(),
  })
  .passthrough();
export type ConvertResponse = z.infer<typeof ConvertResponse>;
