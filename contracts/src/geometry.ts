import { z } from 'zod';
import { MeshBody, Vec3 } from './mesh.ts';

export const LENGTH_UNITS = ['mm', 'cm', 'm', 'in', 'um', 'ft'] as const;
/** Metres per model length unit (the engine's mesh/units.py); a model without a unit is in metres. */
export const METRES_PER_UNIT: Record<(typeof LENGTH_UNITS)[number], number> = {
  m: 1,
  cm: 1e-2,
  mm: 1e-3,
  um: 1e-6,
  in: 0.0254,
  ft: 0.3048,
};
export function metresPerUnit(unit: string | undefined): number {
  return METRES_PER_UNIT[(unit ?? 'm').trim().toLowerCase() as keyof typeof METRES_PER_UNIT] ?? 1;
}
export const UPLOAD_EXTENSIONS = ['json', 'step', 'stp', 'stl', 'obj', 'zip'] as const;

/** Spec 001 §5, exactly. */
export const unsupportedFileTypeMessage = (ext: string) =>
  `Unsupported file type: ${ext}. Supported formats: JSON (mesh/FEA results), STEP, STL, OBJ, ZIP.`;

export const BoundingBox = z.object({ min: Vec3, max: Vec3 });

/**
 * POST /api/convert-step response. For the multi-body form, each body in `meshes` carries its own
 * `face_patches`, and the top-level `face_patches` lists them all in body order. (spec 001 §3 Converted model response): faces + vertices, or the
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
    /** single-body form: the body's name (STEP solid/product name, STL solid name, OBJ object) */
    name: z.string().optional(),
    source_format: z.enum(['step', 'stl', 'obj', 'zip']).optional(),
    /** defects meshing will repair or refuse, found before meshing (STL/OBJ) */
    warnings: z.array(z.string()).optional(),
    notes: z.array(z.string()).optional(),
  })
  .passthrough();
export type ConvertResponse = z.infer<typeof ConvertResponse>;

/** One problem found in a surface or CAD model: the triangles/vertices to highlight and a sentence. */
export const MeshDiagnostic = z.object({
  kind: z.enum([
    'self_intersection',
    'overlapping_triangles',
    'non_manifold_edge',
    'open_boundary',
    'degenerate_triangle',
    'inconsistent_orientation',
    'overlapping_bodies',
    'cad_face',
    'mesher',
  ]),
  message: z.string(),
  /** 0-based indices into the payload's `faces` */
  faces: z.array(z.number().int().nonnegative()),
  /** 0-based indices into the payload's `vertices` */
  vertices: z.array(z.number().int().nonnegative()),
  point: Vec3.optional(),
  body: z.string().optional(),
});
export type MeshDiagnostic = z.infer<typeof MeshDiagnostic>;

/**
 * Problem markers after a meshing failure (spec 001 §3), served at GET /results/tetra_output.json
 * and GET /api/fea/results/{jobId}/problem-markers. `vertices`/`faces` are the surface as uploaded
 * (vertices welded); `problem_faces`/`problem_vertices` index into them.
 */
export const ProblemMarkersPayload = z
  .object({
    format_version: z.number().int(),
    meshing_failed: z.literal(true),
    vertices: z.array(Vec3),
    faces: z.array(z.array(z.number().int().nonnegative())),
    problem_vertices: z.array(z.number().int().nonnegative()),
    problem_faces: z.array(z.number().int().nonnegative()),
    diagnostics: z.array(MeshDiagnostic),
    format: z.literal('problem_markers'),
    error: z.string().optional(),
    units: z.enum(LENGTH_UNITS).optional(),
    repairs: z.array(z.string()).optional(),
  })
  .passthrough();
export type ProblemMarkersPayload = z.infer<typeof ProblemMarkersPayload>;

/** The mesh quality report every mesher's result carries (engine geometry/quality.py). */
export const MeshQualityReport = z
  .object({
    element_count: z.number().int(),
    vertex_count: z.number().int(),
    volume: z.number(),
    min_quality: z.number(),
    avg_quality: z.number(),
    quality_measure: z.string(),
    quality_histogram: z.object({ bins: z.array(z.number()), counts: z.array(z.number().int()) }),
    min_dihedral_deg: z.number(),
    max_dihedral_deg: z.number(),
    slivers: z.number().int(),
    worst_elements: z.array(
      z.object({
        tetrahedron: z.number().int(),
        min_dihedral_deg: z.number(),
        max_dihedral_deg: z.number(),
        quality: z.number(),
      }),
    ),
    radius_edge_histogram: z.object({
      bins: z.array(z.number().nullable()),
      counts: z.array(z.number().int()),
    }),
    max_radius_edge_ratio: z.number(),
  })
  .passthrough();
export type MeshQualityReport = z.infer<typeof MeshQualityReport>;

/**
 * `results` of a completed meshing job (analysisType "tetra-only"): the volume mesh, one body id per
 * tetrahedron, the CAD face / surface patch of each surface triangle, and how it was made.
 */
export const MeshingResults = z
  .object({
    vertices: z.array(Vec3),
    faces: z.array(z.array(z.number().int().nonnegative())),
    tetrahedra: z.array(z.array(z.number().int().nonnegative())),
    tetrahedron_regions: z.array(z.number().int().nonnegative()),
    region_names: z.array(z.string()),
    face_patches: z.array(z.number().int().nonnegative()),
    units: z.enum(LENGTH_UNITS),
    mesher: z.enum(['gmsh-hxt', 'gmsh-delaunay', 'netgen']),
    attempts: z.array(
      z.object({ mesher: z.string(), ok: z.boolean(), seconds: z.number(), message: z.string() }),
    ),
    repairs: z.array(z.string()),
    notes: z.array(z.string()),
    mesh_size: z
      .object({
        max_size: z.number(),
        min_size: z.number(),
        automatic: z.boolean(),
        curvature_refinement: z.boolean(),
        elements_per_circle: z.number().int(),
        body_max_sizes: z.record(z.string(), z.number()),
      })
      .passthrough(),
    quality: MeshQualityReport,
    computation_time: z.number(),
  })
  .passthrough();
export type MeshingResults = z.infer<typeof MeshingResults>;
