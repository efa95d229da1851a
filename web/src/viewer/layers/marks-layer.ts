import { type FaceMark, faceMarkColour } from '@fieldline/contracts';
import * as THREE from 'three';
import { createOverlayMaterial } from '../scene/materials.ts';
import type { ViewerContext } from './context.ts';

/**
 * markFaces: the faces the parent's supports, loads, conditions and ports sit on, drawn over the model in the
 * colour of their role, each member of a role (port 1, port 2) in its own (contracts FACE_MARK_PALETTES; qa31:
 * picked faces were never shown, so nobody could check where a support went).
 * The marks are kept across a new model (a re-mesh keeps the face ids) and follow the deformed shape, since
 * they share the surface's positions.
 */
export class MarksLayer {
  private marks: FaceMark[] = [];
  private drawn: THREE.Group | null = null;
  /** surface triangles drawn per tone, and per colour (for tests) */
  counts: Partial<Record<FaceMark['tone'], number>> = {};
  colours: Record<string, number> = {};

  constructor(private readonly ctx: ViewerContext) {}

  markFaces(marks: FaceMark[]): void {
    this.marks = marks;
    this.redraw();
  }

  /** Draws the marks on the current model (called again when a model loads). */
  redraw(): void {
    this.remove();
    this.counts = {};
    this.colours = {};
    const m = this.ctx.layers.model.model;
    if (!m || this.marks.length === 0) {
      this.ctx.view.requestRender();
      return;
    }
    const byFace = new Map<number, number[]>();
    const triangles = m.display.length / 3;
    for (let t = 0; t < triangles; t++) {
      const id = m.faceIds ? m.faceIds[t]! : t + 1;
      const list = byFace.get(id);
      if (list) list.push(t);
      else byFace.set(id, [t]);
    }
    const group = new THREE.Group();
    // the row being picked is drawn last, over anything else on the same faces
    const ordered = [...this.marks].sort((a, b) => Number(a.tone === 'active') - Number(b.tone === 'active'));
    for (const mark of ordered) {
      const index: number[] = [];
      for (const id of mark.faces) {
        for (const t of byFace.get(id) ?? [])
          index.push(m.display[3 * t]!, m.display[3 * t + 1]!, m.display[3 * t + 2]!);
      }
      if (index.length === 0) continue;
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', m.surfaceGeometry.getAttribute('position'));
      geometry.setIndex(index);
      const colour = faceMarkColour(mark.tone, mark.member).hex;
      const mesh = new THREE.Mesh(
        geometry,
        createOverlayMaterial(Number.parseInt(colour.slice(1), 16), 0.75),
      );
      mesh.frustumCulled = false;
      mesh.renderOrder = mark.tone === 'active' ? 3 : 2;
      group.add(mesh);
      this.counts[mark.tone] = (this.counts[mark.tone] ?? 0) + index.length / 3;
      this.colours[colour] = (this.colours[colour] ?? 0) + index.length / 3;
    }
    this.drawn = group;
    this.ctx.overlays.add(group);
    this.ctx.view.requestRender();
  }

  private remove(): void {
    if (!this.drawn) return;
    this.ctx.overlays.remove(this.drawn);
    this.drawn.traverse((o) => {
      if (o instanceof THREE.Mesh) {
        // the position attribute is the surface's: only the index and material are ours
        o.geometry.setIndex(null);
        o.geometry.deleteAttribute('position');
        o.geometry.dispose();
        (o.material as THREE.Material).dispose();
      }
    });
    this.drawn = null;
  }
}
