import {
  type DeformationSetting,
  type FieldSelection,
  metresPerUnit,
  type ViewerMesh,
} from '@fieldline/contracts';
import * as THREE from 'three';
import { AnimationPlayer } from './animation-player.ts';
import { type ColorRange, formatTick, safeRange, siPrefix } from './color/color-scale.ts';
import type { ColorMapName } from './color/colormaps.ts';
import {
  defaultSelection,
  type FieldMode,
  FieldState,
  type FieldView,
  selectionForMode,
} from './field-state.ts';
import {
  extentAlong,
  interpolateAtSlice,
  interpolateVectorsAtSlice,
  type SliceResult,
} from './geometry/slice.ts';
import type { FunctionArgs, ViewerCommand } from './messaging.ts';
import { ArrowsLayer } from './scene/arrows-layer.ts';
import { DeformationLayer } from './scene/deformation-layer.ts';
import {
  applyRange,
  type ColorUniforms,
  createColorUniforms,
  createLineMaterial,
  createOverlayMaterial,
  createSurfaceMaterial,
  lutTexture,
} from './scene/materials.ts';
import { raycastTriangles } from './scene/picking.ts';
import { View } from './scene/view.ts';
import { drawLegend, LEGEND_WIDTH, LegendView } from './ui/legend.ts';
import { LatestOnly, WorkerClient } from './worker/worker-client.ts';
import type { MeshReply, SliceJob, SliceReply, StreamlineReply, Vec3 } from './worker/worker-protocol.ts';

type Load = Extract<ViewerCommand, { type: 'load-mesh' }>;
type Emit = {
  event: (
    e:
      | { kind: 'section-range'; min: number; max: number; offset: number }
      | { kind: 'face-picked'; faceId: number; point: Vec3 }
      | { kind: 'probe'; position: Vec3; value: number; field: string }
      | { kind: 'png'; dataUrl: string },
  ) => void;
  sync: (state: { currentFrame: number; totalFrames: number; playing: boolean }) => void;
};

/** Colours of bodies when no field is shown: calm, distinguishable, readable under the headlight. */
const BODY_COLORS = [0x8fa8c8, 0xd9a66b, 0x7fbf9a, 0xc98fb7, 0xb9b27a, 0x86b7c4, 0xd08c7f, 0x9e9ad6];
const MAX_ARROWS = 4000;

interface Model {
  mesh: ViewerMesh;
  nv: number;
  bounds: THREE.Box3;
  surface: THREE.Mesh;
  surfaceGeometry: THREE.BufferGeometry;
  materials: THREE.ShaderMaterial[];
  edges: THREE.LineSegments;
  /** one edge material per body (same look; per-body visibility) */
  edgeMaterials: THREE.ShaderMaterial[];
  edgeMaterial: THREE.ShaderMaterial;
  scalar: THREE.BufferAttribute;
  /** display triangles (index), their face ids (null: i + 1) and body per triangle */
  display: Uint32Array;
  faceIds: Uint32Array | null;
  triangleBodies: Uint32Array | null;
  surfaceVertices: Uint32Array | null;
  volumeSites: Uint32Array | null;
  surfaceSites: Uint32Array | null;
}

interface Section {
  normal: Vec3;
  offset: number;
  min: number;
  max: number;
  keepBelow: boolean;
  slice: SliceResult | null;
  cap: THREE.Mesh | null;
  sites: Uint32Array | null;
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

export class ViewerApp {
  readonly view: View;
  private readonly colors: ColorUniforms = createColorUniforms();
  private readonly legend: LegendView;
  private readonly badge: HTMLDivElement;
  private readonly tooltip: HTMLDivElement;
  private readonly problemsBox: HTMLDivElement;
  private readonly statusText: HTMLDivElement;
  private readonly worker = new WorkerClient();
  private readonly arrows: ArrowsLayer;
  private readonly player: AnimationPlayer;
  private readonly root = new THREE.Group();
  private readonly overlays = new THREE.Group();
  private streamlines: THREE.LineSegments | null = null;
  private model: Model | null = null;
  private fields = new FieldState(undefined, undefined);
  private loadSerial = 0;

  private renderMode: 0 | 1 | 2 | 3 = 0;
  /** what the surface shows; null until a result with fields is loaded (then its default) */
  private selection: FieldSelection | null = null;
  private deformation: DeformationSetting = { field: null, scale: 0 };
  /** −1…1 while a mode shape swings (mode-axis animation), else 1 */
  private swing = 1;
  private readonly deformed: DeformationLayer;
  private vectorScale = 1;
  private vectorDensity = 0.2;
  private colorMap: ColorMapName = 'viridis';
  private userMin: number | null = null;
  private userMax: number | null = null;
  private logScale = false;
  private streamlineSettings: FunctionArgs['setStreamlines'][0] = {
    enabled: false,
    seeds: 150,
    field: 'E',
    seedPlacement: 'volume',
  };
  private viewerMode: 'main' | 'section' = 'main';
  private section: Section = {
    normal: [0, 0, 1],
    offset: 0,
    min: 0,
    max: 0,
    keepBelow: true,
    slice: null,
    cap: null,
    sites: null,
  };
  private readonly clipPlane = new THREE.Plane(new THREE.Vector3(0, 0, -1), 0);
  private sectionLocked = false;
  private wheelScrubs = false;
  private facePicking = false;
  private bodyVisible: boolean[] = [];
  private range: ColorRange = safeRange(0, 1, false);
  private current: FieldView | null = null;
  private frame = 0;
  private busy = 0;
  readonly stats: ViewerStats = {
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

  private readonly slicer: LatestOnly<SliceJob & { started: number; serial: number }, SliceReply>;
  private readonly tracer: LatestOnly<{ serial: number; frame: number }, StreamlineReply | null>;
  private readonly highlight: THREE.Mesh;
  private problemMesh: THREE.Object3D | null = null;

  constructor(
    private readonly container: HTMLElement,
    private readonly emit: Emit,
  ) {
    this.view = new View(container);
    this.view.renderer.domElement.classList.add('fl-gl');
    this.view.scene.add(this.root, this.overlays);
    this.arrows = new ArrowsLayer(this.colors);
    this.root.add(this.arrows.group);
    this.deformed = new DeformationLayer();
    this.root.add(this.deformed.outline);
    this.legend = new LegendView(container);
    this.badge = this.div('fl-badge');
    this.tooltip = this.div('fl-tooltip');
    this.problemsBox = this.div('fl-problems');
    this.statusText = this.div('fl-status');
    this.statusText.textContent = 'Waiting for a model…';
    this.player = new AnimationPlayer(
      (frame) => this.showFrame(frame),
      (state) => this.emit.sync(state),
      (phase) => {
        this.swing = phase === 0 ? 1 : Math.sin(phase);
        this.applyDeformation();
      },
    );
    const highlightGeometry = new THREE.BufferGeometry();
    highlightGeometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(9), 3));
    this.highlight = new THREE.Mesh(highlightGeometry, createOverlayMaterial(0xffb224, 0.9));
    this.highlight.visible = false;
    this.highlight.frustumCulled = false;
    this.overlays.add(this.highlight);

    this.slicer = new LatestOnly(
      (job) => {
        this.setBusy(1);
        return this.worker.run('slice', {
          normal: job.normal,
          offset: job.offset,
          visibleBodies: job.visibleBodies,
          siteCount: job.siteCount,
        });
      },
      (slice, job) => {
        this.setBusy(-1);
        if (job.serial === this.loadSerial) this.showSlice(slice, job.started);
      },
      (err) => {
        this.setBusy(-1);
        console.warn('viewer: slice failed', err);
      },
    );
    this.tracer = new LatestOnly(
      (job) => this.traceStreamlines(job.serial),
      (reply, job) => {
        if (reply && job.serial === this.loadSerial) this.showStreamlines(reply);
      },
      (err) => console.warn('viewer: streamlines failed', err),
    );
    this.installPointer();
  }

  private div(className: string): HTMLDivElement {
    const el = document.createElement('div');
    el.className = className;
    this.container.appendChild(el);
    return el;
  }

  private setBusy(delta: number): void {
    this.busy += delta;
    this.stats.busy = this.busy;
  }

  // ---------------------------------------------------------------- messages

  handle(command: ViewerCommand): void {
    if (command.type === 'load-mesh') {
      this.load(command);
      return;
    }
    if (command.type !== 'call-function') return;
    const c = command;
    switch (c.name) {
      case 'setRenderMode':
        this.renderMode = c.args[0] as 0 | 1 | 2 | 3;
        this.applyRenderMode();
        this.updateArrowSites();
        break;
      case 'setFieldMode':
      case 'setField': {
        const t0 = performance.now();
        this.selection = c.name === 'setFieldMode' ? selectionForMode(c.args[0] as FieldMode) : c.args[0];
        this.applyField();
        this.timeUntilRendered(t0, (ms) => {
          this.stats.fieldSwitchMs = ms;
        });
        break;
      }
      case 'setDeformation':
        this.deformation = c.args[0];
        this.applyDeformation();
        break;
      case 'setVectorScale':
        this.vectorScale = c.args[0];
        this.updateArrows();
        break;
      case 'setVectorDensity':
        this.vectorDensity = c.args[0];
        this.updateArrowSites();
        break;
      case 'setColorMap':
        this.colorMap = c.args[0];
        this.colors.uLut.value = lutTexture(this.colorMap);
        this.applyField();
        break;
      case 'setColorRange':
        this.userMin = c.args[0];
        this.userMax = c.args[1];
        this.applyField();
        break;
      case 'setLogScale':
        this.logScale = c.args[0];
        this.applyField();
        break;
      case 'setStreamlines':
        this.streamlineSettings = c.args[0];
        this.refreshStreamlines();
        break;
      case 'zoomToFit':
        this.view.zoomToFit();
        break;
      case 'resetView':
        this.view.resetView();
        break;
      case 'toggleFullscreen':
        this.toggleFullscreen();
        break;
      case 'exportPng':
        this.emit.event({ kind: 'png', dataUrl: this.exportPng() });
        break;
      case 'setViewerMode':
        this.viewerMode = c.args[0];
        if (this.viewerMode === 'section') this.enterSection(false);
        else this.leaveSection();
        break;
      case 'setSectionAxis': {
        const axis = c.args[0];
        const n: Vec3 = axis === 'x' ? [1, 0, 0] : axis === 'y' ? [0, 1, 0] : axis === 'z' ? [0, 0, 1] : axis;
        const len = Math.hypot(n[0], n[1], n[2]);
        if (len === 0) break;
        this.section.normal = [n[0] / len, n[1] / len, n[2] / len];
        this.enterSection(true);
        break;
      }
      case 'setSectionOffset':
        if (this.sectionLocked) this.sendSectionRange();
        else this.moveSection(c.args[0]);
        break;
      case 'setSectionLock':
        this.sectionLocked = c.args[0];
        this.updateControlsForWheel();
        this.updateBadge();
        break;
      case 'setWheelScrubs':
        this.wheelScrubs = c.args[0];
        this.updateControlsForWheel();
        break;
      case 'setBodyVisibility':
        this.bodyVisible[c.args[0]] = c.args[1];
        this.applyBodyVisibility();
        break;
      case 'setFacePicking':
        this.facePicking = c.args[0];
        this.container.classList.toggle('fl-picking', this.facePicking);
        if (!this.facePicking) this.highlight.visible = false;
        this.view.requestRender();
        break;
      case 'playAnimation':
        this.player.play();
        break;
      case 'pauseAnimation':
        this.player.pause();
        break;
      case 'nextFrame':
        this.player.next();
        break;
      case 'previousFrame':
        this.player.previous();
        break;
      case 'setFrame':
        this.player.setFrame(c.args[0]);
        break;
      case 'setAnimationSpeed':
        this.player.setSpeed(c.args[0]);
        break;
      case 'highlightProblems':
        this.showProblems(c.args[0]);
        break;
      case 'clearData':
        this.clear();
        break;
    }
  }

  /** Calls `done(ms)` with the main-thread time from t0 through the next render. */
  private timeUntilRendered(t0: number, done: (ms: number) => void): void {
    const handlerMs = performance.now() - t0;
    this.view.requestRender(() => done(handlerMs + this.view.lastRenderMs));
  }

  // ---------------------------------------------------------------- loading

  clear(): void {
    this.loadSerial++;
    this.player.reset(0);
    this.disposeModel();
    this.fields = new FieldState(undefined, undefined);
    this.current = null;
    this.deformed.clear();
    this.legend.show(null);
    this.clearProblems();
    this.statusText.textContent = 'No model loaded';
    this.stats.loaded = false;
    this.updateBadge();
    this.view.requestRender();
  }

  private disposeModel(): void {
    const m = this.model;
    if (m) {
      this.root.remove(m.surface, m.edges);
      m.surfaceGeometry.dispose();
      m.edges.geometry.dispose();
      for (const mat of m.materials) mat.dispose();
      for (const mat of m.edgeMaterials) mat.dispose();
      m.edgeMaterial.dispose();
    }
    this.model = null;
    this.removeCap();
    this.section.slice = null;
    this.arrows.clear();
    this.removeStreamlines();
    this.highlight.visible = false;
  }

  private load(message: Load): void {
    const t0 = performance.now();
    const serial = ++this.loadSerial;
    const previousBounds = this.model?.bounds ?? null;
    this.disposeModel();
    this.clearProblems();
    const mesh = message.mesh;
    const positions = mesh.positions;
    const nv = positions.length / 3;
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < positions.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const v = positions[i + k]!;
        if (v < lo[k]!) lo[k] = v;
        if (v > hi[k]!) hi[k] = v;
      }
    }
    const bounds = new THREE.Box3();
    if (positions.length > 0) bounds.set(new THREE.Vector3(...lo), new THREE.Vector3(...hi));
    const bodyCount = Math.max(1, mesh.bodies.length);
    this.bodyVisible = Array.from({ length: bodyCount }, (_, i) => mesh.bodies[i]?.visible ?? true);

    // Display triangles, grouped by body when the bodies of the faces are known.
    let display = mesh.triangles;
    let faceIds = mesh.triangleFaceIds ?? null;
    let triangleBodies: Uint32Array | null = null;
    let groups: [number, number, number][] = [[0, display.length / 3, 0]];
    if (mesh.triangleBodies && bodyCount > 1 && mesh.triangleBodies.length === display.length / 3) {
      ({ display, faceIds, triangleBodies, groups } = groupByBody(
        display,
        faceIds,
        mesh.triangleBodies,
        bodyCount,
      ));
    }

    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
    const scalar = new THREE.BufferAttribute(new Float32Array(nv), 1);
    scalar.setUsage(THREE.DynamicDrawUsage);
    geometry.setAttribute('scalar', scalar);
    geometry.setIndex(new THREE.BufferAttribute(display, 1));
    geometry.boundingBox = bounds.clone();
    geometry.boundingSphere = bounds.getBoundingSphere(new THREE.Sphere());
    for (const [start, count, body] of groups) geometry.addGroup(start * 3, count * 3, body);
    const materials = Array.from({ length: bodyCount }, (_, i) =>
      createSurfaceMaterial(this.colors, new THREE.Color(BODY_COLORS[i % BODY_COLORS.length]!)),
    );
    const surface = new THREE.Mesh(geometry, materials);
    surface.frustumCulled = false;
    const edgeGeometry = new THREE.BufferGeometry();
    edgeGeometry.setAttribute('position', geometry.getAttribute('position'));
    edgeGeometry.setAttribute('scalar', scalar);
    edgeGeometry.setIndex(new THREE.BufferAttribute(new Uint32Array(0), 1));
    const edgeMaterial = createLineMaterial(this.colors);
    // Bodies share the edge look through these uniforms; each body gets its own material for visibility.
    const edgeMaterials = Array.from({ length: bodyCount }, () => {
      const mat = createLineMaterial(this.colors);
      mat.uniforms.uUseField = edgeMaterial.uniforms.uUseField!;
      mat.uniforms.uColor = edgeMaterial.uniforms.uColor!;
      mat.uniforms.uOpacity = edgeMaterial.uniforms.uOpacity!;
      return mat;
    });
    const edges = new THREE.LineSegments(edgeGeometry, edgeMaterials);
    edges.frustumCulled = false;
    this.root.add(surface, edges);
    this.model = {
      mesh,
      nv,
      bounds,
      surface,
      surfaceGeometry: geometry,
      materials,
      edges,
      edgeMaterials,
      edgeMaterial,
      scalar,
      display,
      faceIds,
      triangleBodies,
      surfaceVertices: null,
      volumeSites: null,
      surfaceSites: null,
    };
    this.stats.surfaceTriangles = display.length / 3;
    this.fields = new FieldState(message.fields, message.animation, nv, mesh.tetrahedra);
    // Keep the user's choice across results that have that field; otherwise the result's default.
    if (!this.selection || !this.fields.field(this.selection.name))
      this.selection = defaultSelection(message.fields);
    this.deformed.attach(geometry, positions);
    this.frame = 0;
    this.statusText.textContent = display.length === 0 && !mesh.tetrahedra ? 'The model has no surface' : '';
    this.view.setBounds(bounds);
    this.view.fitPoints = positions;
    const sameFrame =
      previousBounds &&
      previousBounds.min.distanceTo(bounds.min) + previousBounds.max.distanceTo(bounds.max) <
        1e-6 * Math.max(1e-30, bounds.getSize(new THREE.Vector3()).length());
    if (!sameFrame) this.view.resetView();
    this.applyRenderMode();
    this.applyBodyVisibility(false);
    this.applyField();
    if (message.problemMarkers) this.showProblems(message.problemMarkers);
    this.stats.loaded = true;
    this.timeUntilRendered(t0, (ms) => {
      this.stats.loadToFirstFrameMs = ms;
    });
    this.player.reset(this.fields.frameCount);
    this.player.setOscillation(message.animation?.axis === 'mode');
    this.swing = 1;
    this.updateBadge();

    // Heavy topology in the worker: edges, per-body surfaces, arrow sites; then the section if open.
    this.setBusy(1);
    const tets = mesh.tetrahedra?.slice();
    const tetBodies = mesh.tetrahedronBodies?.slice();
    const job = {
      positions: positions.slice(),
      triangles: display.slice(),
      triangleGroups: groups.map(([start, count]): [number, number] => [start, count]),
      ...(faceIds ? { triangleFaceIds: faceIds.slice() } : {}),
      ...(tets ? { tets } : {}),
      ...(tetBodies ? { tetBodies } : {}),
      bodyCount,
    };
    const transfer = [job.positions.buffer, job.triangles.buffer];
    if (tets) transfer.push(tets.buffer);
    if (tetBodies) transfer.push(tetBodies.buffer);
    if (job.triangleFaceIds) transfer.push(job.triangleFaceIds.buffer);
    this.worker
      .run('mesh', job, transfer)
      .then((reply) => {
        if (serial === this.loadSerial) this.applyTopology(reply);
      })
      .catch((err) => console.warn('viewer: surface extraction failed', err))
      .finally(() => this.setBusy(-1));
  }

  private applyTopology(reply: MeshReply): void {
    const m = this.model;
    if (!m) return;
    const geometry = m.surfaceGeometry;
    if (reply.bodySurfaces) {
      const s = reply.bodySurfaces;
      m.display = s.triangles;
      m.faceIds = s.faceIds;
      m.triangleBodies = s.bodies;
      geometry.setIndex(new THREE.BufferAttribute(s.triangles, 1));
      geometry.clearGroups();
      s.groups.forEach(([start, count], body) => {
        geometry.addGroup(start * 3, count * 3, body);
      });
    } else if (reply.boundary) {
      m.display = reply.boundary;
      m.faceIds = null;
      geometry.setIndex(new THREE.BufferAttribute(reply.boundary, 1));
      geometry.clearGroups();
      geometry.addGroup(0, reply.boundary.length, 0);
      this.statusText.textContent = '';
    }
    this.stats.surfaceTriangles = m.display.length / 3;
    m.edges.geometry.setIndex(new THREE.BufferAttribute(reply.edges, 1));
    m.edges.geometry.clearGroups();
    reply.edgeGroups.forEach(([start, count], body) => {
      m.edges.geometry.addGroup(2 * start, 2 * count, Math.min(body, m.edgeMaterials.length - 1));
    });
    m.surfaceVertices = reply.surfaceVertices;
    this.updateArrowSites();
    if (this.viewerMode === 'section') this.enterSection(false);
    if (this.streamlineSettings.enabled) this.refreshStreamlines();
    this.view.requestRender();
  }

  // ---------------------------------------------------------------- render modes and bodies

  private applyRenderMode(): void {
    const m = this.model;
    if (!m) return;
    const mode = this.renderMode;
    const xray = mode === 2;
    for (const mat of m.materials) {
      mat.uniforms.uXray!.value = xray;
      mat.transparent = xray;
      mat.depthWrite = !xray;
      mat.needsUpdate = true;
    }
    m.surface.visible = mode !== 1;
    m.edges.visible = mode !== 3;
    const e = m.edgeMaterial.uniforms;
    e.uUseField!.value = mode === 1 && !!this.current?.magnitude;
    e.uOpacity!.value = mode === 1 ? 1 : xray ? 0.1 : 0.3;
    (e.uColor!.value as THREE.Color).set(mode === 1 ? 0xc8d3e0 : 0x0b0f14);
    m.edges.renderOrder = 1;
    this.styleCapOutline();
    this.view.requestRender();
  }

  private applyBodyVisibility(render = true): void {
    const m = this.model;
    if (!m) return;
    m.materials.forEach((mat, i) => {
      mat.visible = this.bodyVisible[i] !== false;
    });
    m.edgeMaterials.forEach((mat, i) => {
      mat.visible = this.bodyVisible[i] !== false;
    });
    if (this.viewerMode === 'section') this.requestSlice();
    this.updateArrowSites();
    if (render) this.view.requestRender();
  }

  // ---------------------------------------------------------------- fields

  private applyField(): void {
    const m = this.model;
    if (!m) return;
    const view = this.fields.view(this.selection, this.frame);
    this.current = view;
    const hasField = !!view.magnitude;
    if (view.magnitude) {
      // Frames and modes only swap this one attribute; geometry stays on the GPU.
      m.scalar.array = view.magnitude;
      m.scalar.needsUpdate = true;
    }
    for (const mat of m.materials) mat.uniforms.uUseField!.value = hasField;
    const auto = this.fields.autoRange(this.selection, this.logScale);
    this.range = safeRange(this.userMin ?? auto.min, this.userMax ?? auto.max, this.logScale);
    applyRange(this.colors, this.range);
    this.legend.show(
      hasField
        ? {
            title: view.label,
            units: view.units,
            range: this.range,
            map: this.colorMap,
            auto: this.userMin === null && this.userMax === null,
          }
        : null,
    );
    const e = m.edgeMaterial.uniforms;
    e.uUseField!.value = this.renderMode === 1 && hasField;
    this.styleCapOutline();
    this.styleStreamlines();
    this.updateCapScalars();
    this.updateArrows();
    this.updateBadge();
    this.view.requestRender();
  }

  private showFrame(frame: number): void {
    const t0 = performance.now();
    this.frame = frame;
    this.stats.frame = frame;
    this.applyField();
    if (this.deformation.field) this.applyDeformation();
    if (this.streamlineSettings.enabled) this.tracer.request({ serial: this.loadSerial, frame });
    this.timeUntilRendered(t0, (ms) => {
      this.stats.frameChangeMs = ms;
    });
  }

  private updateBadge(): void {
    const lines: string[] = [];
    const anim = this.fields.animation;
    if (anim && anim.frames.length > 0) {
      const value = anim.frameValues?.[this.frame];
      const named = anim.frameLabels?.[this.frame];
      const label = named
        ? `  ${named}`
        : value === undefined
          ? ''
          : anim.axis === 'phase'
            ? `  φ = ${value.toFixed(0)}°`
            : anim.axis === 'time'
              ? `  t = ${formatSeconds(value)}`
              : `  f = ${formatHertz(value)}`;
      lines.push(`Frame ${this.frame + 1} / ${anim.frames.length}${label}`);
    }
    if (this.model && this.current && !this.current.magnitude && this.fields.hasFields) {
      lines.push(`No ${this.current.name.replaceAll('_', ' ')} in these results`);
    }
    if (this.viewerMode === 'section') {
      const unit = this.model?.mesh.units ?? '';
      lines.push(
        `Section ${axisName(this.section.normal)} = ${this.section.offset.toPrecision(4)} ${unit}${this.sectionLocked ? '  (locked)' : ''}`,
      );
    }
    this.badge.textContent = lines.join('\n');
  }

  // ---------------------------------------------------------------- arrows

  private arrowCount(): number {
    return Math.max(1, Math.round(this.vectorDensity * MAX_ARROWS));
  }

  private updateArrowSites(): void {
    const m = this.model;
    if (!m) return;
    const count = this.arrowCount();
    if (this.viewerMode === 'section') {
      this.requestSlice();
      return;
    }
    const source = this.renderMode === 1 || this.renderMode === 2 ? 'volume' : 'surface';
    const serial = this.loadSerial;
    this.worker
      .run('sites', { source, count })
      .then((sites) => {
        if (serial !== this.loadSerial || !this.model) return;
        this.model.volumeSites = source === 'volume' ? sites : null;
        this.model.surfaceSites = source === 'surface' ? sites : null;
        this.updateArrows();
      })
      .catch((err) => console.warn('viewer: arrow sites failed', err));
  }

  private updateArrows(): void {
    const m = this.model;
    const view = this.current;
    if (!m || !view?.showVectors || !view.vectors) {
      this.arrows.visible = false;
      this.stats.arrows = 0;
      this.view.requestRender();
      return;
    }
    let sites: Float32Array;
    let vectors: Float32Array;
    let spacingDim: 2 | 3 = 2;
    if (this.viewerMode === 'section') {
      const slice = this.section.slice;
      const chosen = this.section.sites;
      if (!slice || !chosen) {
        this.arrows.visible = false;
        return;
      }
      const all = interpolateVectorsAtSlice(slice, view.vectors);
      sites = new Float32Array(chosen.length * 3);
      vectors = new Float32Array(chosen.length * 3);
      chosen.forEach((s, i) => {
        for (let k = 0; k < 3; k++) {
          sites[3 * i + k] = slice.positions[3 * s + k]!;
          vectors[3 * i + k] = all[3 * s + k]!;
        }
      });
    } else {
      const chosen = m.surfaceSites ?? m.volumeSites;
      if (!chosen) {
        this.arrows.visible = false;
        return;
      }
      if (m.volumeSites) spacingDim = 3;
      const visibleBody = this.vertexVisibility();
      const kept = visibleBody ? Array.from(chosen).filter((v) => visibleBody[v]) : Array.from(chosen);
      sites = new Float32Array(kept.length * 3);
      vectors = new Float32Array(kept.length * 3);
      const p = m.mesh.positions;
      kept.forEach((v, i) => {
        for (let k = 0; k < 3; k++) {
          sites[3 * i + k] = p[3 * v + k]!;
          vectors[3 * i + k] = view.vectors![3 * v + k]!;
        }
      });
    }
    const n = Math.max(1, sites.length / 3);
    const diag = m.bounds.getSize(new THREE.Vector3()).length();
    // About the spacing between sites: neighbouring arrows at full strength just touch.
    // Capped for coarse meshes, where few sites would otherwise give arrows as long as the model.
    const base = Math.min(0.07 * diag, (diag / n ** (1 / spacingDim)) * (spacingDim === 2 ? 1.3 : 0.9));
    this.arrows.update(sites, vectors, base, this.vectorScale, this.range.max);
    this.arrows.neutral = this.viewerMode === 'section' || this.renderMode === 0 || this.renderMode === 3;
    this.arrows.visible = true;
    this.stats.arrows = sites.length / 3;
    this.view.requestRender();
  }

  /** Which vertices belong to a visible body (null when every body is visible). */
  private vertexVisibility(): Uint8Array | null {
    const m = this.model;
    if (!m || this.bodyVisible.every((v) => v !== false) || !m.triangleBodies) return null;
    const out = new Uint8Array(m.nv);
    for (let t = 0; t < m.triangleBodies.length; t++) {
      if (this.bodyVisible[m.triangleBodies[t]!] === false) continue;
      out[m.display[3 * t]!] = 1;
      out[m.display[3 * t + 1]!] = 1;
      out[m.display[3 * t + 2]!] = 1;
    }
    return out;
  }

  // ---------------------------------------------------------------- section

  private enterSection(resetOffset: boolean): void {
    const m = this.model;
    if (!m) return;
    const [min, max] = extentAlong(m.mesh.positions, this.section.normal);
    const first = this.section.min === this.section.max;
    this.section.min = min;
    this.section.max = max;
    if (resetOffset || first || this.section.offset < min || this.section.offset > max) {
      this.section.offset = (min + max) / 2;
    }
    // Cut away the half that faces the camera, so the section looks at the viewer.
    const eye = this.view.camera.position;
    const n = this.section.normal;
    this.section.keepBelow = n[0] * eye.x + n[1] * eye.y + n[2] * eye.z > this.section.offset;
    this.updateClip();
    this.sendSectionRange();
    this.requestSlice();
    this.updateControlsForWheel();
    this.updateBadge();
  }

  private leaveSection(): void {
    this.removeCap();
    this.section.slice = null;
    this.section.sites = null;
    const m = this.model;
    if (m) {
      for (const mat of [...m.materials, ...m.edgeMaterials]) mat.clippingPlanes = [];
    }
    this.updateControlsForWheel();
    this.updateArrowSites();
    this.updateBadge();
    this.view.requestRender();
  }

  private moveSection(offset: number): void {
    if (this.viewerMode !== 'section') {
      this.section.offset = offset;
      return;
    }
    this.section.offset = Math.min(this.section.max, Math.max(this.section.min, offset));
    this.updateClip();
    this.sendSectionRange();
    this.requestSlice();
    this.updateBadge();
  }

  private updateClip(): void {
    const m = this.model;
    if (!m) return;
    const [nx, ny, nz] = this.section.normal;
    // three.js keeps the side where the plane's signed distance is ≥ 0.
    if (this.section.keepBelow) this.clipPlane.set(new THREE.Vector3(-nx, -ny, -nz), this.section.offset);
    else this.clipPlane.set(new THREE.Vector3(nx, ny, nz), -this.section.offset);
    for (const mat of [...m.materials, ...m.edgeMaterials]) mat.clippingPlanes = [this.clipPlane];
    this.view.requestRender();
  }

  private sendSectionRange(): void {
    this.emit.event({
      kind: 'section-range',
      min: this.section.min,
      max: this.section.max,
      offset: this.section.offset,
    });
  }

  private requestSlice(): void {
    const m = this.model;
    if (!m || this.viewerMode !== 'section') return;
    if (!m.mesh.tetrahedra || m.mesh.tetrahedra.length === 0) {
      // A surface-only model: clip it, there is no volume to cap.
      this.view.requestRender();
      return;
    }
    this.slicer.request({
      normal: this.section.normal,
      offset: this.section.offset,
      visibleBodies: this.bodyVisible.map((v) => v !== false),
      siteCount: this.arrowCount(),
      started: performance.now(),
      serial: this.loadSerial,
    });
  }

  private showSlice(slice: SliceReply, started: number): void {
    const t0 = performance.now();
    const m = this.model;
    if (!m || this.viewerMode !== 'section') return;
    this.removeCap();
    this.section.slice = slice;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(slice.positions, 3));
    const scalar = new THREE.BufferAttribute(new Float32Array(slice.weight.length), 1);
    scalar.setUsage(THREE.DynamicDrawUsage);
    geometry.setAttribute('scalar', scalar);
    const material = createSurfaceMaterial(this.colors, new THREE.Color(0xb8c4d2));
    material.polygonOffset = false;
    const cap = new THREE.Mesh(geometry, material);
    cap.frustumCulled = false;
    // The mesh on the cut: the outline of every cut polygon, drawn like the surface's edges.
    const outlineGeometry = new THREE.BufferGeometry();
    outlineGeometry.setAttribute('position', geometry.getAttribute('position'));
    outlineGeometry.setAttribute('scalar', scalar);
    outlineGeometry.setIndex(new THREE.BufferAttribute(slice.outline, 1));
    const outline = new THREE.LineSegments(outlineGeometry, createLineMaterial(this.colors));
    outline.frustumCulled = false;
    outline.name = 'section-outline';
    cap.add(outline);
    this.section.cap = cap;
    this.root.add(cap);
    this.styleCapOutline();
    this.updateCapScalars();
    this.stats.sliceTriangles = slice.weight.length / 3;
    // Arrow sites on the cut: an even subset of its vertices.
    this.section.sites = slice.sites;
    this.updateArrows();
    this.stats.sliceMainMs = performance.now() - t0;
    this.stats.sliceWorkerMs = slice.computeMs;
    this.stats.sliceReceivedMs = t0 - started;
    this.view.requestRender(() => {
      this.stats.sliceWallMs = performance.now() - started;
    });
  }

  private updateCapScalars(): void {
    const cap = this.section.cap;
    const slice = this.section.slice;
    if (!cap || !slice) return;
    const material = cap.material as THREE.ShaderMaterial;
    const magnitude = this.current?.magnitude ?? null;
    material.uniforms.uUseField!.value = !!magnitude;
    if (magnitude) {
      const attr = cap.geometry.getAttribute('scalar') as THREE.BufferAttribute;
      interpolateAtSlice(slice, magnitude, attr.array as Float32Array);
      attr.needsUpdate = true;
    }
  }

  private removeCap(): void {
    const cap = this.section.cap;
    if (!cap) return;
    this.root.remove(cap);
    for (const child of cap.children) {
      if (child instanceof THREE.LineSegments) {
        child.geometry.dispose();
        (child.material as THREE.Material).dispose();
      }
    }
    cap.geometry.dispose();
    (cap.material as THREE.Material).dispose();
    this.section.cap = null;
  }

  /** The cut's mesh lines follow the render mode, like the surface edges. */
  private styleCapOutline(): void {
    const m = this.model;
    const outline = this.section.cap?.children.find((c) => c.name === 'section-outline') as
      | THREE.LineSegments<THREE.BufferGeometry, THREE.ShaderMaterial>
      | undefined;
    if (!m || !outline) return;
    const src = m.edgeMaterial.uniforms;
    const dst = outline.material.uniforms;
    dst.uUseField!.value = src.uUseField!.value;
    dst.uOpacity!.value = src.uOpacity!.value;
    (dst.uColor!.value as THREE.Color).copy(src.uColor!.value as THREE.Color);
    outline.visible = this.renderMode !== 3;
  }

  private updateControlsForWheel(): void {
    this.view.controls.enableZoom = !(
      this.viewerMode === 'section' &&
      this.wheelScrubs &&
      !this.sectionLocked
    );
  }

  // ---------------------------------------------------------------- streamlines

  private refreshStreamlines(): void {
    if (!this.streamlineSettings.enabled) {
      this.removeStreamlines();
      this.view.requestRender();
      return;
    }
    this.tracer.request({ serial: this.loadSerial, frame: this.frame });
  }

  private async traceStreamlines(serial: number): Promise<StreamlineReply | null> {
    const m = this.model;
    if (!m || serial !== this.loadSerial || !m.mesh.tetrahedra) return null;
    const view = this.fields.view({ name: this.streamlineField(), display: 'magnitude' }, this.frame);
    if (!view.vectors || !view.magnitude) return null;
    const plane =
      this.streamlineSettings.seedPlacement === 'section' && this.viewerMode === 'section'
        ? { normal: this.section.normal, offset: this.section.offset }
        : undefined;
    this.setBusy(1);
    try {
      return await this.worker.run('streamlines', {
        vectors: view.vectors.slice(),
        magnitudes: view.magnitude.slice(),
        count: this.streamlineSettings.seeds,
        ...(plane ? { plane } : {}),
      });
    } finally {
      this.setBusy(-1);
    }
  }

  private showStreamlines(reply: StreamlineReply): void {
    this.removeStreamlines();
    if (!this.streamlineSettings.enabled) return;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(reply.segments, 3));
    geometry.setAttribute('scalar', new THREE.BufferAttribute(reply.magnitudes, 1));
    const material = createLineMaterial(this.colors);
    material.uniforms.uOpacity!.value = 1;
    material.depthWrite = true;
    material.transparent = false;
    this.streamlines = new THREE.LineSegments(geometry, material);
    this.streamlines.frustumCulled = false;
    this.root.add(this.streamlines);
    this.styleStreamlines();
    this.stats.streamlineSegments = reply.segments.length / 6;
    this.view.requestRender();
  }

  /** Field colours when the lines show the field on display (same legend); a plain light colour otherwise. */
  private styleStreamlines(): void {
    if (!this.streamlines) return;
    const u = (this.streamlines.material as THREE.ShaderMaterial).uniforms;
    const sameField = this.current?.name === this.streamlineField() && !!this.current?.magnitude;
    u.uUseField!.value = sameField;
    (u.uColor!.value as THREE.Color).set(0xe6f0ff);
  }

  /** The vector field streamlines follow: a name, or the spec-era 'E' / 'H'. */
  private streamlineField(): string {
    const f = this.streamlineSettings.field;
    return f === 'E' ? 'electric_field' : f === 'H' ? 'magnetic_field' : f;
  }

  /** Warps the mesh by the chosen deformation field at the current frame (docs/multiphysics.md §6). */
  private applyDeformation(): void {
    const { field, scale } = this.deformation;
    const displacement = field ? this.fields.vectorsAt(field, this.frame) : null;
    // Fields are SI (metres), vertices are in the model's unit.
    const perUnit = metresPerUnit(this.model?.mesh.units);
    this.deformed.apply(displacement, (scale * this.swing) / perUnit);
    this.view.requestRender();
  }

  private removeStreamlines(): void {
    if (!this.streamlines) return;
    this.root.remove(this.streamlines);
    this.streamlines.geometry.dispose();
    (this.streamlines.material as THREE.Material).dispose();
    this.streamlines = null;
    this.stats.streamlineSegments = 0;
  }

  // ---------------------------------------------------------------- problem markers

  private showProblems(markers: { vertices: Uint32Array; faces: Uint32Array; messages: string[] }): void {
    this.clearProblems();
    const m = this.model;
    if (!m) return;
    const group = new THREE.Group();
    const tris = m.mesh.triangles;
    const faceIndex: number[] = [];
    for (const f of markers.faces) {
      if (3 * f + 2 < tris.length) faceIndex.push(tris[3 * f]!, tris[3 * f + 1]!, tris[3 * f + 2]!);
    }
    if (faceIndex.length > 0) {
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', m.surfaceGeometry.getAttribute('position'));
      geometry.setIndex(faceIndex);
      const faces = new THREE.Mesh(geometry, createOverlayMaterial(0xe5484d, 0.92));
      faces.frustumCulled = false;
      faces.renderOrder = 2;
      group.add(faces);
    }
    if (markers.vertices.length > 0) {
      const pts = new Float32Array(markers.vertices.length * 3);
      markers.vertices.forEach((v, i) => {
        pts.set(m.mesh.positions.subarray(3 * v, 3 * v + 3), 3 * i);
      });
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.BufferAttribute(pts, 3));
      const points = new THREE.Points(
        geometry,
        new THREE.PointsMaterial({ color: 0xffd23f, size: 11, sizeAttenuation: false, depthTest: false }),
      );
      points.renderOrder = 3;
      group.add(points);
    }
    this.problemMesh = group;
    this.overlays.add(group);
    const count = `${markers.faces.length} problem face${markers.faces.length === 1 ? '' : 's'}, ${markers.vertices.length} problem vert${markers.vertices.length === 1 ? 'ex' : 'ices'}`;
    this.problemsBox.textContent = [count, ...markers.messages.slice(0, 6)].join('\n');
    this.problemsBox.style.whiteSpace = 'pre-wrap';
    this.problemsBox.style.display = 'block';
    this.view.requestRender();
  }

  private clearProblems(): void {
    if (this.problemMesh) {
      this.overlays.remove(this.problemMesh);
      this.problemMesh.traverse((o) => {
        if (o instanceof THREE.Mesh || o instanceof THREE.Points) {
          o.geometry.dispose();
          (o.material as THREE.Material).dispose();
        }
      });
    }
    this.problemMesh = null;
    this.problemsBox.style.display = 'none';
  }

  // ---------------------------------------------------------------- picking and probing

  private installPointer(): void {
    const canvas = this.view.renderer.domElement;
    let down: { x: number; y: number } | null = null;
    let lastMove = 0;
    canvas.addEventListener('pointerdown', (e) => {
      down = { x: e.clientX, y: e.clientY };
      this.tooltip.style.display = 'none';
    });
    canvas.addEventListener('pointerup', (e) => {
      if (down && Math.hypot(e.clientX - down.x, e.clientY - down.y) < 4 && e.button === 0) this.click(e);
      down = null;
    });
    canvas.addEventListener('pointermove', (e) => {
      if (e.buttons !== 0) return;
      const now = performance.now();
      if (now - lastMove < 60) return;
      lastMove = now;
      this.hover(e);
    });
    canvas.addEventListener('pointerleave', () => {
      this.tooltip.style.display = 'none';
      if (this.highlight.visible) {
        this.highlight.visible = false;
        this.view.requestRender();
      }
    });
    // Wheel scrubbing: caught before OrbitControls (capture on the container) so it does not zoom.
    this.container.addEventListener(
      'wheel',
      (e) => {
        if (this.viewerMode !== 'section' || !this.wheelScrubs || this.sectionLocked) return;
        e.preventDefault();
        e.stopPropagation();
        const step = (this.section.max - this.section.min) / 100;
        this.moveSection(this.section.offset + (e.deltaY > 0 ? -step : step));
      },
      { capture: true, passive: false },
    );
  }

  private rayFrom(e: PointerEvent): THREE.Ray {
    const rect = this.view.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(
      ((e.clientX - rect.left) / rect.width) * 2 - 1,
      -((e.clientY - rect.top) / rect.height) * 2 + 1,
    );
    const caster = new THREE.Raycaster();
    caster.setFromCamera(ndc, this.view.camera);
    return caster.ray;
  }

  /** What is under the pointer: the cut face (section mode) or the visible surface. */
  pick(
    ray: THREE.Ray,
  ):
    | { where: 'surface'; triangle: number; point: Vec3; value: number | null }
    | { where: 'section'; point: Vec3; value: number | null }
    | null {
    const m = this.model;
    if (!m) return null;
    const r = {
      origin: [ray.origin.x, ray.origin.y, ray.origin.z] as Vec3,
      direction: [ray.direction.x, ray.direction.y, ray.direction.z] as Vec3,
    };
    const clipped = this.viewerMode === 'section';
    const plane = this.clipPlane;
    const bodies = m.triangleBodies;
    const surfaceHit =
      m.surface.visible || this.renderMode === 1
        ? raycastTriangles(r, m.mesh.positions, m.display, m.display.length / 3, (t, p) => {
            if (bodies && this.bodyVisible[bodies[t]!] === false) return false;
            if (
              clipped &&
              plane.normal.x * p[0] + plane.normal.y * p[1] + plane.normal.z * p[2] + plane.constant < 0
            )
              return false;
            return true;
          })
        : null;
    const slice = this.section.slice;
    const capHit =
      clipped && slice && this.section.cap
        ? raycastTriangles(r, slice.positions, null, slice.weight.length / 3)
        : null;
    const mag = this.current?.magnitude ?? null;
    if (capHit && (!surfaceHit || capHit.distance <= surfaceHit.distance)) {
      let value: number | null = null;
      if (mag) {
        const vals = interpolateAtSlice(slice!, mag);
        const t = capHit.triangle;
        value = capHit.u * vals[3 * t]! + capHit.v * vals[3 * t + 1]! + capHit.w * vals[3 * t + 2]!;
      }
      return { where: 'section', point: capHit.point, value };
    }
    if (!surfaceHit) return null;
    const t = surfaceHit.triangle;
    const a = m.display[3 * t]!;
    const b = m.display[3 * t + 1]!;
    const c = m.display[3 * t + 2]!;
    const value = mag ? surfaceHit.u * mag[a]! + surfaceHit.v * mag[b]! + surfaceHit.w * mag[c]! : null;
    return { where: 'surface', triangle: t, point: surfaceHit.point, value };
  }

  private faceIdOf(triangle: number): number {
    const m = this.model;
    if (!m) return 0;
    return m.faceIds ? m.faceIds[triangle]! : triangle + 1;
  }

  private click(e: PointerEvent): void {
    const hit = this.pick(this.rayFrom(e));
    if (!hit) return;
    if (this.facePicking) {
      if (hit.where !== 'surface') return;
      const faceId = this.faceIdOf(hit.triangle);
      if (faceId > 0) {
        this.showHighlight(hit.triangle);
        this.emit.event({ kind: 'face-picked', faceId, point: hit.point });
      }
      return;
    }
    if (hit.value !== null && this.current) {
      this.emit.event({ kind: 'probe', position: hit.point, value: hit.value, field: this.current.label });
    }
  }

  private hover(e: PointerEvent): void {
    const hit = this.pick(this.rayFrom(e));
    const rect = this.container.getBoundingClientRect();
    if (!hit) {
      this.tooltip.style.display = 'none';
      if (this.highlight.visible) {
        this.highlight.visible = false;
        this.view.requestRender();
      }
      return;
    }
    const unit = this.model?.mesh.units ?? '';
    const pos = hit.point.map((v) => v.toPrecision(4)).join(', ');
    const lines: string[] = [];
    if (this.facePicking && hit.where === 'surface') {
      lines.push(`Face ${this.faceIdOf(hit.triangle)}`);
      this.showHighlight(hit.triangle);
    }
    if (hit.value !== null && this.current) {
      const { factor, prefix } = siPrefix(Math.abs(hit.value));
      lines.push(`${this.current.label} = ${formatTick(hit.value, factor)} ${prefix}${this.current.units}`);
    }
    lines.push(`(${pos}) ${unit}`);
    this.tooltip.textContent = lines.join('\n');
    this.tooltip.style.display = 'block';
    this.tooltip.style.left = `${Math.min(e.clientX - rect.left + 14, rect.width - 200)}px`;
    this.tooltip.style.top = `${e.clientY - rect.top + 14}px`;
  }

  private showHighlight(triangle: number): void {
    const m = this.model;
    if (!m) return;
    const attr = this.highlight.geometry.getAttribute('position') as THREE.BufferAttribute;
    for (let k = 0; k < 3; k++) {
      const v = m.display[3 * triangle + k]!;
      attr.setXYZ(k, m.mesh.positions[3 * v]!, m.mesh.positions[3 * v + 1]!, m.mesh.positions[3 * v + 2]!);
    }
    attr.needsUpdate = true;
    this.highlight.geometry.computeBoundingSphere();
    this.highlight.visible = true;
    this.view.requestRender();
  }

  // ---------------------------------------------------------------- view actions

  private toggleFullscreen(): void {
    const run = document.fullscreenElement
      ? document.exitFullscreen()
      : document.documentElement.requestFullscreen();
    run.catch((err: Error) => {
      // Browsers allow fullscreen only from a user gesture in this frame; the parent can fullscreen the iframe.
      console.warn('viewer: fullscreen refused', err.message);
    });
  }

  exportPng(): string {
    const legend = this.legend.current;
    const canvas = this.view.capture((ctx, scale) => {
      if (!legend) return;
      ctx.save();
      ctx.scale(scale, scale);
      const width = ctx.canvas.width / scale;
      drawLegend(ctx, width - LEGEND_WIDTH - 12, 12, legend);
      ctx.restore();
      const badge = this.badge.textContent;
      if (badge) {
        ctx.save();
        ctx.scale(scale, scale);
        ctx.font = '12px system-ui, sans-serif';
        ctx.fillStyle = '#e8edf3';
        badge.split('\n').forEach((line, i) => {
          ctx.fillText(line, 14, 24 + 17 * i);
        });
        ctx.restore();
      }
    });
    return canvas.toDataURL('image/png');
  }

  /**
   * What the viewer shows, for the browser tests and the benchmark: the coloured field and its legend, the
   * deformation, and the drawn position of vertex `i` (model units; deformed when a deformation is shown).
   */
  shown(i = 0): {
    field: string | null;
    legend: { title: string; units: string; min: number; max: number } | null;
    deformation: DeformationSetting;
    position: [number, number, number] | null;
  } {
    const legend = this.legend.current;
    const p = this.deformed.positions;
    return {
      field: this.current?.name || null,
      legend: legend
        ? { title: legend.title, units: legend.units, min: legend.range.min, max: legend.range.max }
        : null,
      deformation: this.deformation,
      position: p && 3 * i + 2 < p.length ? [p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!] : null,
    };
  }

  get statsSnapshot(): ViewerStats {
    return {
      ...this.stats,
      renders: this.view.renders,
      lastRenderMs: this.view.lastRenderMs,
      lastFrameWaitMs: this.view.lastFrameWaitMs,
    };
  }
}

/** Triangles sorted by body (counting sort) with per-body groups. */
function groupByBody(
  triangles: Uint32Array,
  faceIds: Uint32Array | null,
  bodies: Uint32Array,
  bodyCount: number,
): {
  display: Uint32Array;
  faceIds: Uint32Array;
  triangleBodies: Uint32Array;
  groups: [number, number, number][];
} {
  const n = bodies.length;
  const counts = new Uint32Array(bodyCount + 1);
  for (let t = 0; t < n; t++) counts[Math.min(bodies[t]!, bodyCount - 1) + 1]!++;
  const start = new Uint32Array(bodyCount + 1);
  for (let b = 0; b < bodyCount; b++) start[b + 1] = start[b]! + counts[b + 1]!;
  const fill = start.slice();
  const display = new Uint32Array(3 * n);
  const ids = new Uint32Array(n);
  const sortedBodies = new Uint32Array(n);
  for (let t = 0; t < n; t++) {
    const b = Math.min(bodies[t]!, bodyCount - 1);
    const k = fill[b]!++;
    display.set(triangles.subarray(3 * t, 3 * t + 3), 3 * k);
    ids[k] = faceIds ? faceIds[t]! : t + 1;
    sortedBodies[k] = b;
  }
  const groups: [number, number, number][] = [];
  for (let b = 0; b < bodyCount; b++) groups.push([start[b]!, start[b + 1]! - start[b]!, b]);
  return { display, faceIds: ids, triangleBodies: sortedBodies, groups };
}

function axisName(n: Vec3): string {
  if (n[0] === 1 && n[1] === 0 && n[2] === 0) return 'x';
  if (n[0] === 0 && n[1] === 1 && n[2] === 0) return 'y';
  if (n[0] === 0 && n[1] === 0 && n[2] === 1) return 'z';
  return `n·(${n.map((v) => v.toFixed(2)).join(', ')})`;
}

function formatHertz(hz: number): string {
  const { factor, prefix } = siPrefix(Math.abs(hz));
  return `${formatTick(hz, factor)} ${prefix}Hz`;
}

function formatSeconds(s: number): string {
  const { factor, prefix } = siPrefix(Math.abs(s));
  return `${formatTick(s, factor)} ${prefix}s`;
}
