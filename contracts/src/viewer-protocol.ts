import { z } from 'zod';

/**
 * Window messages between the environment (parent) and the viewer page in its iframe (spec 001 §7).
 * Large arrays travel as typed arrays (structured clone / transfer), never as JSON text.
 * Both sides validate every message with these schemas and check `event.origin`.
 */

// Any backing buffer (views on a decoded results.bin share one ArrayBuffer).
const f32 = z.custom<Float32Array>((v) => v instanceof Float32Array, 'expected a Float32Array');
const u32 = z.custom<Uint32Array>((v) => v instanceof Uint32Array, 'expected a Uint32Array');

/** Geometry: surface triangles of the volume mesh (or the uploaded surface), multi-body aware. */
export const ViewerMesh = z.object({
  /** xyz per vertex, model units */
  positions: f32,
  /** three vertex indices per surface triangle; triangle i is face id i + 1 unless triangleFaceIds says */
  triangles: u32,
  /** 1-based face id per triangle, where polygons were split or bodies merged (else face id = i + 1) */
  triangleFaceIds: u32.optional(),
  /** four vertex indices per tetrahedron (section cuts need them); absent for surface-only models */
  tetrahedra: u32.optional(),
  /** body index per triangle, for per-body colour and visibility */
  triangleBodies: u32.optional(),
  /** body index per tetrahedron */
  tetrahedronBodies: u32.optional(),
  bodies: z.array(z.object({ name: z.string(), visible: z.boolean().default(true) })).default([]),
  units: z.string().default('m'),
});
export type ViewerMesh = z.infer<typeof ViewerMesh>;

/** Fields at vertices (SI units). Vectors are xyz per vertex. */
export const ViewerFields = z.object({
  eMagnitude: f32.optional(),
  hMagnitude: f32.optional(),
  eVectors: f32.optional(),
  hVectors: f32.optional(),
  potential: f32.optional(),
});
export type ViewerFields = z.infer<typeof ViewerFields>;

/** Time-domain snapshots or phase frames of a time-harmonic field: one ViewerFields per frame. */
export const ViewerAnimation = z.object({
  frames: z.array(ViewerFields),
  /** seconds (time domain) or degrees of phase (time-harmonic) per frame */
  frameValues: z.array(z.number()).optional(),
  kind: z.enum(['time', 'phase']).default('time'),
});
export type ViewerAnimation = z.infer<typeof ViewerAnimation>;

export const ProblemMarkers = z.object({
  vertices: u32,
  /** 0-based triangle indices into ViewerMesh.triangles */
  faces: u32,
  messages: z.array(z.string()).default([]),
});

/** Functions the parent may call in the viewer via `call-function`. */
export const VIEWER_FUNCTIONS = [
  'setRenderMode', // (mode: 0 Shell & Wireframe | 1 Wireframe | 2 X-Ray | 3 Solid)
  'setFieldMode', // (mode: 0 Electric Field | 1 Magnetic Field | 2 Electric Magnitude | 3 Magnetic Magnitude)
  'setVectorScale', // (scale 0.1–5.0)
  'setVectorDensity', // (fraction 0–1)
  'setColorMap', // ('viridis' | 'turbo' | 'coolwarm')
  'setColorRange', // (min: number | null, max: number | null) — null = auto
  'setLogScale', // (on: boolean)
  'setStreamlines', // ({ enabled, seeds, field: 'E' | 'H' })
  'zoomToFit',
  'resetView',
  'toggleFullscreen',
  'exportPng', // () → viewer-event { kind: 'png', dataUrl }
  'setViewerMode', // ('main' | 'section')
  'setSectionAxis', // ('x' | 'y' | 'z' | [nx, ny, nz])
  'setSectionOffset', // (offset in model units)
  'setSectionLock', // (locked: boolean)
  'setWheelScrubs', // (on: boolean)
  'setBodyVisibility', // (bodyIndex, visible)
  'setFacePicking', // (on: boolean) → viewer-event { kind: 'face-picked', faceId }
  'playAnimation',
  'pauseAnimation',
  'nextFrame',
  'previousFrame',
  'setFrame', // (index)
  'setAnimationSpeed', // (fps 0.5–10)
  'highlightProblems', // (ProblemMarkers)
  'clearData',
] as const;
export type ViewerFunctionName = (typeof VIEWER_FUNCTIONS)[number];

export const ParentToViewerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('parent-hello') }),
  z.object({
    type: z.literal('load-mesh'),
    mesh: ViewerMesh,
    fields: ViewerFields.optional(),
    animation: ViewerAnimation.optional(),
    problemMarkers: ProblemMarkers.optional(),
  }),
  z.object({
    type: z.literal('call-function'),
    name: z.enum(VIEWER_FUNCTIONS),
    args: z.array(z.unknown()).default([]),
  }),
]);
export type ParentToViewerMessage = z.infer<typeof ParentToViewerMessage>;

export const ViewerEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('section-range'), min: z.number(), max: z.number(), offset: z.number() }),
  z.object({
    kind: z.literal('face-picked'),
    faceId: z.number().int().positive(),
    point: z.tuple([z.number(), z.number(), z.number()]),
  }),
  z.object({
    kind: z.literal('probe'),
    position: z.tuple([z.number(), z.number(), z.number()]),
    value: z.number(),
    field: z.string(),
  }),
  z.object({ kind: z.literal('png'), dataUrl: z.string() }),
]);

export const ViewerToParentMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('viewer-ready') }),
  z.object({ type: z.literal('viewer-event'), event: ViewerEvent }),
  z.object({
    type: z.literal('viewer-animation-sync'),
    currentFrame: z.number().int().nonnegative(),
    totalFrames: z.number().int().nonnegative(),
    playing: z.boolean(),
  }),
]);
export type ViewerToParentMessage = z.infer<typeof ViewerToParentMessage>;
