import * as THREE from 'three';
import { extentAlong, interpolateAtSlice, type SliceResult } from '../geometry/slice.ts';
import type { FunctionArgs } from '../messaging.ts';
import { createLineMaterial, createSurfaceMaterial } from '../scene/materials.ts';
import { LatestOnly } from '../worker/worker-client.ts';
import type { SliceJob, SliceReply, Vec3 } from '../worker/worker-protocol.ts';
import type { ViewerContext } from './context.ts';

/**
 * The section view (spec 001 §9): a clip plane through the model, the cut face (cap) coloured by the shown
 * field with its mesh lines, the plane's axis and offset, the lock and wheel scrubbing. The cut is made in
 * the worker, latest request only.
 */
export class SectionLayer {
  /** setViewerMode: 'section' shows the cut */
  active = false;
  normal: Vec3 = [0, 0, 1];
  offset = 0;
  min = 0;
  max = 0;
  /** the cut slice and the vertices of it that carry arrows */
  slice: SliceResult | null = null;
  sites: Uint32Array | null = null;
  cap: THREE.Mesh | null = null;
  readonly clipPlane = new THREE.Plane(new THREE.Vector3(0, 0, -1), 0);
  private keepBelow = true;
  private locked = false;
  private wheelScrubs = false;
  private readonly slicer: LatestOnly<SliceJob & { started: number; serial: number }, SliceReply>;

  constructor(private readonly ctx: ViewerContext) {
    this.slicer = new LatestOnly(
      (job) => {
        ctx.setBusy(1);
        return ctx.worker.run('slice', {
          normal: job.normal,
          offset: job.offset,
          visibleBodies: job.visibleBodies,
          siteCount: job.siteCount,
        });
      },
      (slice, job) => {
        ctx.setBusy(-1);
        if (job.serial === ctx.serial) this.showSlice(slice, job.started);
      },
      (err) => {
        ctx.setBusy(-1);
        console.warn('viewer: slice failed', err);
      },
    );
    // Wheel scrubbing: caught before OrbitControls (capture on the container) so it does not zoom.
    ctx.container.addEventListener(
      'wheel',
      (e) => {
        if (!this.active || !this.wheelScrubs || this.locked) return;
        e.preventDefault();
        e.stopPropagation();
        const step = (this.max - this.min) / 100;
        this.move(this.offset + (e.deltaY > 0 ? -step : step));
      },
      { capture: true, passive: false },
    );
  }

  // ---------------------------------------------------------------- protocol

  setViewerMode(mode: 'main' | 'section'): void {
    this.active = mode === 'section';
    if (this.active) this.enter(false);
    else this.leave();
  }

  setAxis(axis: FunctionArgs['setSectionAxis'][0]): void {
    const n: Vec3 = axis === 'x' ? [1, 0, 0] : axis === 'y' ? [0, 1, 0] : axis === 'z' ? [0, 0, 1] : axis;
    const len = Math.hypot(n[0], n[1], n[2]);
    if (len === 0) return;
    this.normal = [n[0] / len, n[1] / len, n[2] / len];
    this.enter(true);
  }

  setOffset(offset: number): void {
    if (this.locked) this.sendRange();
    else this.move(offset);
  }

  setLock(locked: boolean): void {
    this.locked = locked;
    this.updateControlsForWheel();
    this.ctx.layers.hud.update();
  }

  setWheelScrubs(on: boolean): void {
    this.wheelScrubs = on;
    this.updateControlsForWheel();
  }

  // ---------------------------------------------------------------- state

  /** The model is going away. */
  dispose(): void {
    this.removeCap();
    this.slice = null;
  }

  /** The shown field changed: recolour the cap and restyle its lines. */
  fieldChanged(): void {
    this.styleCapOutline();
    this.updateCapScalars();
  }

  enter(resetOffset: boolean): void {
    const m = this.ctx.layers.model.model;
    if (!m) return;
    const [min, max] = extentAlong(m.mesh.positions, this.normal);
    const first = this.min === this.max;
    this.min = min;
    this.max = max;
    if (resetOffset || first || this.offset < min || this.offset > max) {
      this.offset = (min + max) / 2;
    }
    // Cut away the half that faces the camera, so the section looks at the viewer.
    const eye = this.ctx.view.camera.position;
    const n = this.normal;
    this.keepBelow = n[0] * eye.x + n[1] * eye.y + n[2] * eye.z > this.offset;
    this.updateClip();
    this.sendRange();
    this.requestSlice();
    this.updateControlsForWheel();
    this.ctx.layers.hud.update();
  }

  private leave(): void {
    this.removeCap();
    this.slice = null;
    this.sites = null;
    const m = this.ctx.layers.model.model;
    if (m) {
      for (const mat of [...m.materials, ...m.edgeMaterials]) mat.clippingPlanes = [];
    }
    this.updateControlsForWheel();
    this.ctx.layers.arrows.updateSites();
    this.ctx.layers.hud.update();
    this.ctx.view.requestRender();
  }

  private move(offset: number): void {
    if (!this.active) {
      this.offset = offset;
      return;
    }
    this.offset = Math.min(this.max, Math.max(this.min, offset));
    this.updateClip();
    this.sendRange();
    this.requestSlice();
    this.ctx.layers.hud.update();
  }

  private updateClip(): void {
    const m = this.ctx.layers.model.model;
    if (!m) return;
    const [nx, ny, nz] = this.normal;
    // three.js keeps the side where the plane's signed distance is ≥ 0.
    if (this.keepBelow) this.clipPlane.set(new THREE.Vector3(-nx, -ny, -nz), this.offset);
    else this.clipPlane.set(new THREE.Vector3(nx, ny, nz), -this.offset);
    for (const mat of [...m.materials, ...m.edgeMaterials]) mat.clippingPlanes = [this.clipPlane];
    this.ctx.view.requestRender();
  }

  private sendRange(): void {
    this.ctx.emit.event({ kind: 'section-range', min: this.min, max: this.max, offset: this.offset });
  }

  requestSlice(): void {
    const L = this.ctx.layers;
    const m = L.model.model;
    if (!m || !this.active) return;
    if (!m.mesh.tetrahedra || m.mesh.tetrahedra.length === 0) {
      // A surface-only model: clip it, there is no volume to cap.
      this.ctx.view.requestRender();
      return;
    }
    this.slicer.request({
      normal: this.normal,
      offset: this.offset,
      visibleBodies: L.model.bodyVisible.map((v) => v !== false),
      siteCount: L.arrows.count,
      started: performance.now(),
      serial: this.ctx.serial,
    });
  }

  private showSlice(slice: SliceReply, started: number): void {
    const { ctx } = this;
    const t0 = performance.now();
    const m = ctx.layers.model.model;
    if (!m || !this.active) return;
    this.removeCap();
    this.slice = slice;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(slice.positions, 3));
    const scalar = new THREE.BufferAttribute(new Float32Array(slice.weight.length), 1);
    scalar.setUsage(THREE.DynamicDrawUsage);
    geometry.setAttribute('scalar', scalar);
    const material = createSurfaceMaterial(ctx.colors, new THREE.Color(0xb8c4d2));
    material.polygonOffset = false;
    const cap = new THREE.Mesh(geometry, material);
    cap.frustumCulled = false;
    // The mesh on the cut: the outline of every cut polygon, drawn like the surface's edges.
    const outlineGeometry = new THREE.BufferGeometry();
    outlineGeometry.setAttribute('position', geometry.getAttribute('position'));
    outlineGeometry.setAttribute('scalar', scalar);
    outlineGeometry.setIndex(new THREE.BufferAttribute(slice.outline, 1));
    const outline = new THREE.LineSegments(outlineGeometry, createLineMaterial(ctx.colors));
    outline.frustumCulled = false;
    outline.name = 'section-outline';
    cap.add(outline);
    this.cap = cap;
    ctx.root.add(cap);
    this.styleCapOutline();
    this.updateCapScalars();
    ctx.stats.sliceTriangles = slice.weight.length / 3;
    // Arrow sites on the cut: an even subset of its vertices.
    this.sites = slice.sites;
    ctx.layers.arrows.update();
    ctx.stats.sliceMainMs = performance.now() - t0;
    ctx.stats.sliceWorkerMs = slice.computeMs;
    ctx.stats.sliceReceivedMs = t0 - started;
    ctx.view.requestRender(() => {
      ctx.stats.sliceWallMs = performance.now() - started;
    });
  }

  private updateCapScalars(): void {
    const cap = this.cap;
    const slice = this.slice;
    if (!cap || !slice) return;
    const material = cap.material as THREE.ShaderMaterial;
    const magnitude = this.ctx.layers.surface.current?.magnitude ?? null;
    material.uniforms.uUseField!.value = !!magnitude;
    if (magnitude) {
      const attr = cap.geometry.getAttribute('scalar') as THREE.BufferAttribute;
      interpolateAtSlice(slice, magnitude, attr.array as Float32Array);
      attr.needsUpdate = true;
    }
  }

  private removeCap(): void {
    const cap = this.cap;
    if (!cap) return;
    this.ctx.root.remove(cap);
    for (const child of cap.children) {
      if (child instanceof THREE.LineSegments) {
        child.geometry.dispose();
        (child.material as THREE.Material).dispose();
      }
    }
    cap.geometry.dispose();
    (cap.material as THREE.Material).dispose();
    this.cap = null;
  }

  /** The cut's mesh lines follow the render mode, like the surface edges. */
  styleCapOutline(): void {
    const L = this.ctx.layers;
    const m = L.model.model;
    const outline = this.cap?.children.find((c) => c.name === 'section-outline') as
      | THREE.LineSegments<THREE.BufferGeometry, THREE.ShaderMaterial>
      | undefined;
    if (!m || !outline) return;
    const src = m.edgeMaterial.uniforms;
    const dst = outline.material.uniforms;
    dst.uUseField!.value = src.uUseField!.value;
    dst.uOpacity!.value = src.uOpacity!.value;
    (dst.uColor!.value as THREE.Color).copy(src.uColor!.value as THREE.Color);
    outline.visible = L.model.renderMode !== 3;
  }

  private updateControlsForWheel(): void {
    this.ctx.view.controls.enableZoom = !(this.active && this.wheelScrubs && !this.locked);
  }

  badgeLines(): string[] {
    if (!this.active) return [];
    const unit = this.ctx.layers.model.model?.mesh.units ?? '';
    const where = `${axisName(this.normal)} = ${this.offset.toPrecision(4)} ${unit}`;
    return [`Section ${where}${this.locked ? '  (locked)' : ''}`];
  }
}

function axisName(n: Vec3): string {
  if (n[0] === 1 && n[1] === 0 && n[2] === 0) return 'x';
  if (n[0] === 0 && n[1] === 1 && n[2] === 0) return 'y';
  if (n[0] === 0 && n[1] === 0 && n[2] === 1) return 'z';
  return `n·(${n.map((v) => v.toFixed(2)).join(', ')})`;
}
