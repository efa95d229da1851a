import type * as THREE from 'three';
import type { ColorUniforms } from '../scene/materials.ts';
import type { View } from '../scene/view.ts';
import type { WorkerClient } from '../worker/worker-client.ts';
import type { Vec3 } from '../worker/worker-protocol.ts';
import type { AnimationLayer } from './animation-layer.ts';
import type { ArrowMarksLayer } from './arrow-marks-layer.ts';
import type { ArrowsLayer } from './arrows-layer.ts';
import type { CameraLayer } from './camera-layer.ts';
import type { DeformationLayer } from './deformation-layer.ts';
import type { ExportLayer } from './export-layer.ts';
import type { HudLayer } from './hud-layer.ts';
import type { MarksLayer } from './marks-layer.ts';
import type { ModelLayer } from './model-layer.ts';
import type { PickingLayer } from './picking-layer.ts';
import type { ProblemsLayer } from './problems-layer.ts';
import type { SectionLayer } from './section-layer.ts';
import type { StreamlinesLayer } from './streamlines-layer.ts';
import type { SurfaceLayer } from './surface-layer.ts';

/**
 * What the viewer's layers share. Each layer owns its own state (the model, the colouring, the arrows, the
 * section, …) and reaches the others through `layers`; the composition root (viewer-app.ts) builds them.
 */

export type ViewerEventOut =
  | { kind: 'section-range'; min: number; max: number; offset: number }
  | { kind: 'face-picked'; faceId: number; point: Vec3 }
  | { kind: 'probe'; position: Vec3; value: number; field: string }
  | { kind: 'png'; dataUrl: string }
  | { kind: 'camera'; camera: { position: Vec3; target: Vec3; up: Vec3 } }
  | { kind: 'legend'; field: string; min: number; max: number; dataMin: number; dataMax: number };

export interface Emit {
  event: (e: ViewerEventOut) => void;
  sync: (state: { currentFrame: number; totalFrames: number; playing: boolean }) => void;
}

/** Timings of the last operations (ms of main-thread time, plus wall time where a worker is involved). */
export interface ViewerStats {
  loadToFirstFrameMs: number;
  fieldSwitchMs: number;
  frameChangeMs: number;
  sliceWallMs: number;
  sliceMainMs: number;
  /** time the worker spent cutting (and picking arrow sites) */
  sliceWorkerMs: number;
  /** from the slice request until its result reached the page (worker queue + cut + transfer) */
  sliceReceivedMs: number;
  renders: number;
  lastRenderMs: number;
  lastFrameWaitMs: number;
  surfaceTriangles: number;
  sliceTriangles: number;
  arrows: number;
  streamlineSegments: number;
  frame: number;
  loaded: boolean;
  busy: number;
}

export function emptyStats(): ViewerStats {
  return {
    loadToFirstFrameMs: 0,
    fieldSwitchMs: 0,
    frameChangeMs: 0,
    sliceWallMs: 0,
    sliceMainMs: 0,
    sliceWorkerMs: 0,
    sliceReceivedMs: 0,
    renders: 0,
    lastRenderMs: 0,
    lastFrameWaitMs: 0,
    surfaceTriangles: 0,
    sliceTriangles: 0,
    arrows: 0,
    streamlineSegments: 0,
    frame: 0,
    loaded: false,
    busy: 0,
  };
}

/** Every layer of the viewer, by name (the command table maps protocol functions to these names). */
export interface Layers {
  model: ModelLayer;
  surface: SurfaceLayer;
  arrows: ArrowsLayer;
  section: SectionLayer;
  streamlines: StreamlinesLayer;
  problems: ProblemsLayer;
  picking: PickingLayer;
  marks: MarksLayer;
  arrowMarks: ArrowMarksLayer;
  deformation: DeformationLayer;
  animation: AnimationLayer;
  camera: CameraLayer;
  exporter: ExportLayer;
  hud: HudLayer;
}
export type LayerName = keyof Layers;

export interface ViewerContext {
  readonly view: View;
  /** the viewer's element: the canvas and the HUD elements live in it */
  readonly container: HTMLElement;
  /** colour map, range and log flag shared by every field-coloured material */
  readonly colors: ColorUniforms;
  /** model-space objects: surface, edges, cap, arrows, streamlines, undeformed outline */
  readonly root: THREE.Group;
  /** drawn over the model: picked-face highlight, marked faces, problem markers */
  readonly overlays: THREE.Group;
  readonly worker: WorkerClient;
  readonly stats: ViewerStats;
  readonly emit: Emit;
  readonly layers: Layers;
  /** the current load; worker replies for an older one are dropped */
  serial: number;
  /** setSyncEvents: camera moves and legend changes are reported to the parent (linked panes) */
  syncEvents: boolean;
  /** work in flight in the worker (stats.busy) */
  setBusy(delta: number): void;
  /** Calls `done(ms)` with the main-thread time from t0 through the next render. */
  timeUntilRendered(t0: number, done: (ms: number) => void): void;
  /** A HUD element (class `className`) appended to the container. */
  element(className: string): HTMLDivElement;
}
