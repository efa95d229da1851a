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

export const FIELD_KINDS = ['scalar', 'vector', 'tensor'] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];
/** Values per entry of each kind; tensors are symmetric, Voigt order xx yy zz xy yz xz. */
export const FIELD_COMPONENTS: Record<FieldKind, number> = { scalar: 1, vector: 3, tensor: 6 };
export const FIELD_LOCATIONS = ['vertex', 'cell'] as const;
export const FRAME_AXES = ['time', 'phase', 'mode', 'frequency'] as const;
export type FrameAxis = (typeof FRAME_AXES)[number];

/**
 * One named result field (docs/multiphysics.md §1): SI `unit` as the legend prints it, values per vertex
 * (or per tetrahedron for `location: cell`), the real part of a phasor with `imag` beside it.
 * `role: deformation` marks a displacement the viewer can warp the mesh by.
 */
export const ViewerField = z.object({
  label: z.string(),
  unit: z.string(),
  kind: z.enum(FIELD_KINDS),
  location: z.enum(FIELD_LOCATIONS).default('vertex'),
  role: z.string().optional(),
  values: f32,
  imag: f32.optional(),
});
export type ViewerField = z.infer<typeof ViewerField>;

/** The result's field catalogue by name, in the order the field selector lists them. */
export const ViewerFields = z.record(z.string(), ViewerField);
export type ViewerFields = z.infer<typeof ViewerFields>;

/**
 * Animation frames on an axis: time snapshots (s), phase of a time-harmonic field (deg), mode shapes
 * (values = eigenfrequencies, Hz) or frequency points (Hz). Each frame maps field names to values shaped
 * like the field's — or, for a vector field, one magnitude per entry when the vectors were too large to keep.
 */
export const ViewerAnimation = z.object({
  frames: z.array(z.record(z.string(), f32)),
  frameValues: z.array(z.number()).optional(),
  /** what the animation controls print per frame, e.g. "mode 3 — 412.6 Hz" */
  frameLabels: z.array(z.string()).optional(),
  axis: z.enum(FRAME_AXES).default('time'),
  unit: z.string().optional(),
});
export type ViewerAnimation = z.infer<typeof ViewerAnimation>;

/** What the surface shows of a field (setField): its colour by magnitude or one component, with arrows. */
export const FIELD_DISPLAYS = ['magnitude', 'arrows', 'component'] as const;
export const FieldSelection = z.object({
  name: z.string(),
  display: z.enum(FIELD_DISPLAYS).default('magnitude'),
  /** component index for display 'component' (vector: 0–2, tensor: 0–5 in Voigt order) */
  component: z.number().int().min(0).max(5).optional(),
});
export type FieldSelection = z.infer<typeof FieldSelection>;

/** setDeformation: warp the mesh by a `deformation` field × scale (0 or null field = undeformed). */
export const DeformationSetting = z.object({ field: z.string().nullable(), scale: z.number().min(0) });
export type DeformationSetting = z.infer<typeof DeformationSetting>;

export const ProblemMarkers = z.object({
  vertices: u32,
  /** 0-based triangle indices into ViewerMesh.triangles */
  faces: u32,
  messages: z.array(z.string()).default([]),
});

/** How a marked face is coloured: what holds the model, what loads it, anything else, the row being picked. */
export const FACE_MARK_TONES = ['constraint', 'load', 'other', 'active'] as const;
export type FaceMarkTone = (typeof FACE_MARK_TONES)[number];
export const FaceMark = z.object({
  /** 1-based face ids (docs/conventions.md), as the form's face lists hold them */
  faces: z.array(z.number().int().positive()),
  tone: z.enum(FACE_MARK_TONES),
  /** which member of its role (0: the first port, support, terminal…), to colour each its own way */
  member: z.number().int().nonnegative().optional(),
});
export type FaceMark = z.infer<typeof FaceMark>;

const xyz = z.tuple([z.number().finite(), z.number().finite(), z.number().finite()]);
/**
 * An arrow the form draws on the model before a run (a coil's current direction): from `origin` along
 * `direction`, whose length is the arrow's, both in model units; coloured as a face mark of `tone` and `member`.
 */
export const ArrowMark = z.object({
  origin: xyz,
  direction: xyz,
  tone: z.enum(FACE_MARK_TONES),
  member: z.number().int().nonnegative().optional(),
});
export type ArrowMark = z.infer<typeof ArrowMark>;

/**
 * The colours of the face marks, shared by the viewer and the form's swatches (the key to the marks): per
 * role a family of four, one per member by index (qa32: two wave ports, or two terminals, were one colour,
 * so port 1 could not be told from port 2); a fifth member takes the first colour again. Each is at least
 * 3:1 against the panel behind its swatch and ΔE ≥ 30 from the model's grey-blue, lit or in shade, at the
 * marks' 75 % opacity; members of a role are ΔE ≥ 25 apart (web/test/viewer/mark-colours.test.ts).
 */
export const FACE_MARK_PALETTES: Record<FaceMarkTone, readonly { hex: string; name: string }[]> = {
  constraint: [
    { hex: '#3b8bff', name: 'blue' },
    { hex: '#a35cff', name: 'violet' },
    { hex: '#00d0e0', name: 'cyan' },
    { hex: '#d58cff', name: 'lavender' },
  ],
  load: [
    { hex: '#ff6a2b', name: 'orange' },
    { hex: '#e8175d', name: 'crimson' },
    { hex: '#ff8fb8', name: 'pink' },
    { hex: '#ff00cc', name: 'magenta' },
  ],
  other: [
    { hex: '#2fbf71', name: 'green' },
    { hex: '#c8f060', name: 'lime' },
    { hex: '#7ff5c8', name: 'mint' },
    { hex: '#8c6238', name: 'brown' },
  ],
  active: [{ hex: '#ffb224', name: 'amber' }],
};

/** The colour a mark of `tone` is drawn in for the member'th row of its role. */
export function faceMarkColour(tone: FaceMarkTone, member = 0): { hex: string; name: string } {
  const palette = FACE_MARK_PALETTES[tone];
  return palette[member % palette.length]!;
}

/** Functions the parent may call in the viewer via `call-function`. */
export const VIEWER_FUNCTIONS = [
  'setRenderMode', // (mode: 0 Shell & Wireframe | 1 Wireframe | 2 X-Ray | 3 Solid)
  'setFieldMode', // (mode: 0 Electric Field | 1 Magnetic Field | 2 Electric Magnitude | 3 Magnetic Magnitude) — the spec's alias of setField (SPEC_FIELD_MODES)
  'setField', // (FieldSelection) — any field of the catalogue
  'setDeformation', // (DeformationSetting)
  'setVectorScale', // (scale 0.1–5.0)
  'setVectorDensity', // (fraction 0–1)
  'setColorMap', // ('viridis' | 'turbo' | 'coolwarm')
  'setColorRange', // (min: number | null, max: number | null) — null = auto
  'setLogScale', // (on: boolean)
  'setStreamlines', // ({ enabled, seeds, field: a vector field's name; 'E' | 'H' mean electric_field | magnetic_field })
  'zoomToFit',
  'resetView',
  'setCamera', // (CameraState) — put the camera where another pane's is (linked panes); reports no camera event
  'setSyncEvents', // (on: boolean) — report camera moves and the legend's data range (viewer-event camera | legend)
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
  'markFaces', // (FaceMark[]) — the faces the form's supports, loads, conditions and ports sit on, coloured by role and member
  'markArrows', // (ArrowMark[]) — arrows the form draws on the model before a run: each coil's current direction
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

const vec3 = z.tuple([z.number(), z.number(), z.number()]);
/** Where the camera is and what it looks at (model units), for panes whose cameras move together. */
export const CameraState = z.object({ position: vec3, target: vec3, up: vec3 });
export type CameraState = z.infer<typeof CameraState>;

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
  /** with setSyncEvents(true): the user moved the camera (not sent for setCamera) */
  z.object({ kind: z.literal('camera'), camera: CameraState }),
  /**
   * with setSyncEvents(true): the legend after each change — the shown range (`min`, `max`) and the data's own
   * range of the coloured quantity (`dataMin`, `dataMax`), so panes can share one range.
   */
  z.object({
    kind: z.literal('legend'),
    field: z.string(),
    min: z.number(),
    max: z.number(),
    dataMin: z.number(),
    dataMax: z.number(),
  }),
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
