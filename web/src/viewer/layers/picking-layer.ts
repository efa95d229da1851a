import * as THREE from 'three';
import { formatTick, siPrefix } from '../color/color-scale.ts';
import { interpolateAtSlice } from '../geometry/slice.ts';
import { createOverlayMaterial } from '../scene/materials.ts';
import { raycastTriangles } from '../scene/picking.ts';
import type { Vec3 } from '../worker/worker-protocol.ts';
import type { ViewerContext } from './context.ts';

export type Pick =
  | { where: 'surface'; triangle: number; point: Vec3; value: number | null }
  | { where: 'section'; point: Vec3; value: number | null };

/**
 * The pointer on the model: hover shows the value and position under it; a click probes the shown field
 * or, while face picking is on (setFacePicking), picks a face (highlighted) for the parent's forms.
 */
export class PickingLayer {
  private facePicking = false;
  private readonly tooltip: HTMLDivElement;
  private readonly highlight: THREE.Mesh;

  constructor(private readonly ctx: ViewerContext) {
    this.tooltip = ctx.element('fl-tooltip');
    const highlightGeometry = new THREE.BufferGeometry();
    highlightGeometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(9), 3));
    this.highlight = new THREE.Mesh(highlightGeometry, createOverlayMaterial(0xffb224, 0.9));
    this.highlight.visible = false;
    this.highlight.frustumCulled = false;
    ctx.overlays.add(this.highlight);
  }

  setFacePicking(on: boolean): void {
    this.facePicking = on;
    this.ctx.container.classList.toggle('fl-picking', on);
    if (!on) this.highlight.visible = false;
    this.ctx.view.requestRender();
  }

  hideHighlight(): void {
    this.highlight.visible = false;
  }

  /** Listens to the canvas (called once the canvas exists). */
  installPointer(): void {
    const canvas = this.ctx.view.renderer.domElement;
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
        this.ctx.view.requestRender();
      }
    });
  }

  private rayFrom(e: PointerEvent): THREE.Ray {
    const rect = this.ctx.view.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(
      ((e.clientX - rect.left) / rect.width) * 2 - 1,
      -((e.clientY - rect.top) / rect.height) * 2 + 1,
    );
    const caster = new THREE.Raycaster();
    caster.setFromCamera(ndc, this.ctx.view.camera);
    return caster.ray;
  }

  /** What is under the pointer: the cut face (section mode) or the visible surface. */
  pick(ray: THREE.Ray): Pick | null {
    const L = this.ctx.layers;
    const m = L.model.model;
    if (!m) return null;
    const r = {
      origin: [ray.origin.x, ray.origin.y, ray.origin.z] as Vec3,
      direction: [ray.direction.x, ray.direction.y, ray.direction.z] as Vec3,
    };
    const section = L.section;
    const clipped = section.active;
    const plane = section.clipPlane;
    const bodies = m.triangleBodies;
    const bodyVisible = L.model.bodyVisible;
    const surfaceHit =
      m.surface.visible || L.model.renderMode === 1
        ? raycastTriangles(r, m.mesh.positions, m.display, m.display.length / 3, (t, p) => {
            if (bodies && bodyVisible[bodies[t]!] === false) return false;
            if (
              clipped &&
              plane.normal.x * p[0] + plane.normal.y * p[1] + plane.normal.z * p[2] + plane.constant < 0
            )
              return false;
            return true;
          })
        : null;
    const slice = section.slice;
    const capHit =
      clipped && slice && section.cap
        ? raycastTriangles(r, slice.positions, null, slice.weight.length / 3)
        : null;
    const mag = L.surface.current?.magnitude ?? null;
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
    const m = this.ctx.layers.model.model;
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
        this.ctx.emit.event({ kind: 'face-picked', faceId, point: hit.point });
      }
      return;
    }
    const current = this.ctx.layers.surface.current;
    if (hit.value !== null && current) {
      this.ctx.emit.event({ kind: 'probe', position: hit.point, value: hit.value, field: current.label });
    }
  }

  private hover(e: PointerEvent): void {
    const hit = this.pick(this.rayFrom(e));
    const rect = this.ctx.container.getBoundingClientRect();
    if (!hit) {
      this.tooltip.style.display = 'none';
      if (this.highlight.visible) {
        this.highlight.visible = false;
        this.ctx.view.requestRender();
      }
      return;
    }
    const unit = this.ctx.layers.model.model?.mesh.units ?? '';
    const pos = hit.point.map((v) => v.toPrecision(4)).join(', ');
    const lines: string[] = [];
    if (this.facePicking && hit.where === 'surface') {
      lines.push(`Face ${this.faceIdOf(hit.triangle)}`);
      this.showHighlight(hit.triangle);
    }
    const current = this.ctx.layers.surface.current;
    if (hit.value !== null && current) {
      const { factor, prefix } = siPrefix(Math.abs(hit.value));
      lines.push(`${current.label} = ${formatTick(hit.value, factor)} ${prefix}${current.units}`);
    }
    lines.push(`(${pos}) ${unit}`);
    this.tooltip.textContent = lines.join('\n');
    this.tooltip.style.display = 'block';
    this.tooltip.style.left = `${Math.min(e.clientX - rect.left + 14, rect.width - 200)}px`;
    this.tooltip.style.top = `${e.clientY - rect.top + 14}px`;
  }

  private showHighlight(triangle: number): void {
    const m = this.ctx.layers.model.model;
    if (!m) return;
    const attr = this.highlight.geometry.getAttribute('position') as THREE.BufferAttribute;
    for (let k = 0; k < 3; k++) {
      const v = m.display[3 * triangle + k]!;
      attr.setXYZ(k, m.mesh.positions[3 * v]!, m.mesh.positions[3 * v + 1]!, m.mesh.positions[3 * v + 2]!);
    }
    attr.needsUpdate = true;
    this.highlight.geometry.computeBoundingSphere();
    this.highlight.visible = true;
    this.ctx.view.requestRender();
  }
}
