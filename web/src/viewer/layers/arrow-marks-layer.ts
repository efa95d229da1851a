import { type ArrowMark, faceMarkColour } from '@fieldline/contracts';
import * as THREE from 'three';
import type { ViewerContext } from './context.ts';

/**
 * markArrows: arrows the form draws on the model before a run — a coil's current direction about its axis,
 * or into and out of an open winding's terminals — in the colour of their role and member, as face marks are.
 * Drawn over everything (a winding usually sits inside the air around it); kept across a new model like the
 * face marks, drawn only while a model is loaded.
 */
export class ArrowMarksLayer {
  private arrows: ArrowMark[] = [];
  private drawn: THREE.Group | null = null;
  /** arrows drawn (for tests) */
  count = 0;

  constructor(private readonly ctx: ViewerContext) {}

  markArrows(arrows: ArrowMark[]): void {
    this.arrows = arrows;
    this.redraw();
  }

  /** Draws the arrows (called again when a model loads or is cleared). */
  redraw(): void {
    this.remove();
    this.count = 0;
    if (!this.ctx.layers.model.model || this.arrows.length === 0) {
      this.ctx.view.requestRender();
      return;
    }
    const group = new THREE.Group();
    group.name = 'arrow-marks';
    for (const a of this.arrows) {
      const direction = new THREE.Vector3(...a.direction);
      const length = direction.length();
      if (!(length > 0)) continue;
      const colour = Number.parseInt(faceMarkColour(a.tone, a.member).hex.slice(1), 16);
      const arrow = new THREE.ArrowHelper(
        direction.normalize(),
        new THREE.Vector3(...a.origin),
        length,
        colour,
        0.35 * length,
        0.2 * length,
      );
      arrow.traverse((o) => {
        if (o instanceof THREE.Mesh || o instanceof THREE.Line) {
          const m = o.material as THREE.Material;
          m.depthTest = false;
          m.transparent = true;
          o.renderOrder = 4;
        }
      });
      group.add(arrow);
      this.count++;
    }
    this.drawn = group;
    this.ctx.overlays.add(group);
    this.ctx.view.requestRender();
  }

  private remove(): void {
    if (!this.drawn) return;
    this.ctx.overlays.remove(this.drawn);
    this.drawn.traverse((o) => {
      if (o instanceof THREE.ArrowHelper) o.dispose();
    });
    this.drawn = null;
  }
}
