import * as THREE from 'three';
import { FieldState } from '../field-state.ts';
import type { ViewerCommand } from '../messaging.ts';
import { createModel, disposeModel, type Model } from '../scene/model-meshes.ts';
import type { MeshReply } from '../worker/worker-protocol.ts';
import type { ViewerContext } from './context.ts';

export type Load = Extract<ViewerCommand, { type: 'load-mesh' }>;
/** 0 Shell & Wireframe | 1 Wireframe | 2 X-Ray | 3 Solid (spec 001 §9) */
export type RenderMode = 0 | 1 | 2 | 3;
export type { Model } from '../scene/model-meshes.ts';

/**
 * The loaded model and its result: surface and edge meshes per body, the render mode, body visibility and
 * the result's named fields (FieldState). Owns the load → clear life cycle and tells the other layers.
 */
export class ModelLayer {
  model: Model | null = null;
  fields = new FieldState(undefined, undefined);
  renderMode: RenderMode = 0;
  bodyVisible: boolean[] = [];
  private readonly status: HTMLDivElement;

  constructor(private readonly ctx: ViewerContext) {
    this.status = ctx.element('fl-status');
    this.status.textContent = 'Waiting for a model…';
  }

  // ---------------------------------------------------------------- life cycle

  /** clearData: no model, no result. */
  clear(): void {
    const { ctx } = this;
    const L = ctx.layers;
    ctx.serial++;
    L.animation.reset();
    this.dispose();
    this.fields = new FieldState(undefined, undefined);
    L.surface.reset();
    L.deformation.clear();
    L.problems.clear();
    L.marks.redraw();
    L.arrowMarks.redraw();
    this.status.textContent = 'No model loaded';
    ctx.stats.loaded = false;
    L.hud.update();
    ctx.view.requestRender();
  }

  /** Drops the model and what the other layers built on it. */
  private dispose(): void {
    const m = this.model;
    if (m) {
      this.ctx.root.remove(m.surface, m.edges);
      disposeModel(m);
    }
    this.model = null;
    const L = this.ctx.layers;
    L.section.dispose();
    L.arrows.dispose();
    L.streamlines.remove();
    L.picking.hideHighlight();
  }

  /** load-mesh: shows a model and its result; heavy topology follows from the worker. */
  load(message: Load): void {
    const { ctx } = this;
    const L = ctx.layers;
    const t0 = performance.now();
    const serial = ++ctx.serial;
    const previousBounds = this.model?.bounds ?? null;
    this.dispose();
    L.problems.clear();
    const mesh = message.mesh;
    const positions = mesh.positions;
    const { model, groups, bodyCount } = createModel(mesh, ctx.colors);
    const { nv, bounds, display, faceIds, surfaceGeometry: geometry } = model;
    this.bodyVisible = Array.from({ length: bodyCount }, (_, i) => mesh.bodies[i]?.visible ?? true);
    ctx.root.add(model.surface, model.edges);
    this.model = model;
    ctx.stats.surfaceTriangles = display.length / 3;
    this.fields = new FieldState(message.fields, message.animation, nv, mesh.tetrahedra);
    L.surface.keepSelectionOrDefault(message.fields);
    L.deformation.attach(geometry, positions);
    L.animation.rewind();
    this.status.textContent = display.length === 0 && !mesh.tetrahedra ? 'The model has no surface' : '';
    ctx.view.setBounds(bounds);
    ctx.view.fitPoints = positions;
    const sameFrame =
      previousBounds &&
      previousBounds.min.distanceTo(bounds.min) + previousBounds.max.distanceTo(bounds.max) <
        1e-6 * Math.max(1e-30, bounds.getSize(new THREE.Vector3()).length());
    if (!sameFrame) ctx.view.resetView();
    this.applyRenderMode();
    this.applyBodyVisibility(false);
    L.surface.apply();
    if (message.problemMarkers) L.problems.show(message.problemMarkers);
    L.marks.redraw();
    L.arrowMarks.redraw();
    ctx.stats.loaded = true;
    ctx.timeUntilRendered(t0, (ms) => {
      ctx.stats.loadToFirstFrameMs = ms;
    });
    L.animation.loaded(this.fields.frameCount, message.animation?.axis === 'mode');
    L.deformation.resetSwing();
    L.hud.update();

    // Heavy topology in the worker: edges, per-body surfaces, arrow sites; then the section if open.
    ctx.setBusy(1);
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
    ctx.worker
      .run('mesh', job, transfer)
      .then((reply) => {
        if (serial === ctx.serial) this.applyTopology(reply);
      })
      .catch((err) => console.warn('viewer: surface extraction failed', err))
      .finally(() => ctx.setBusy(-1));
  }

  private applyTopology(reply: MeshReply): void {
    const m = this.model;
    if (!m) return;
    const L = this.ctx.layers;
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
      this.status.textContent = '';
    }
    this.ctx.stats.surfaceTriangles = m.display.length / 3;
    m.edges.geometry.setIndex(new THREE.BufferAttribute(reply.edges, 1));
    m.edges.geometry.clearGroups();
    reply.edgeGroups.forEach(([start, count], body) => {
      m.edges.geometry.addGroup(2 * start, 2 * count, Math.min(body, m.edgeMaterials.length - 1));
    });
    m.surfaceVertices = reply.surfaceVertices;
    L.arrows.updateSites();
    if (L.section.active) L.section.enter(false);
    if (L.streamlines.enabled) L.streamlines.refresh();
    this.ctx.view.requestRender();
  }

  // ---------------------------------------------------------------- render modes and bodies

  setRenderMode(mode: RenderMode): void {
    this.renderMode = mode;
    this.applyRenderMode();
    this.ctx.layers.arrows.updateSites();
  }

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
    e.uUseField!.value = mode === 1 && !!this.ctx.layers.surface.current?.magnitude;
    e.uOpacity!.value = mode === 1 ? 1 : xray ? 0.1 : 0.3;
    (e.uColor!.value as THREE.Color).set(mode === 1 ? 0xc8d3e0 : 0x0b0f14);
    m.edges.renderOrder = 1;
    this.ctx.layers.section.styleCapOutline();
    this.ctx.view.requestRender();
  }

  /** Edges take the field's colours in wireframe mode, when a field is shown. */
  showFieldOnEdges(hasField: boolean): void {
    const m = this.model;
    if (m) m.edgeMaterial.uniforms.uUseField!.value = this.renderMode === 1 && hasField;
  }

  setBodyVisibility(body: number, visible: boolean): void {
    this.bodyVisible[body] = visible;
    this.applyBodyVisibility();
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
    const L = this.ctx.layers;
    if (L.section.active) L.section.requestSlice();
    L.arrows.updateSites();
    if (render) this.ctx.view.requestRender();
  }

  /** Which vertices belong to a visible body (null when every body is visible). */
  vertexVisibility(): Uint8Array | null {
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
}
