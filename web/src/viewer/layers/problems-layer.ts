import * as THREE from 'three';
import { createOverlayMaterial } from '../scene/materials.ts';
import type { ViewerContext } from './context.ts';

/** Meshing problems (highlightProblems, or sent with load-mesh): bad faces in red, bad vertices as dots. */
export class ProblemsLayer {
  private markers: THREE.Object3D | null = null;
  private readonly box: HTMLDivElement;

  constructor(private readonly ctx: ViewerContext) {
    this.box = ctx.element('fl-problems');
  }

  /** Whether markers are drawn (for tests). */
  get shown(): boolean {
    return this.markers !== null;
  }

  show(markers: { vertices: Uint32Array; faces: Uint32Array; messages: string[] }): void {
    this.clear();
    const m = this.ctx.layers.model.model;
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
    this.markers = group;
    this.ctx.overlays.add(group);
    const count = `${markers.faces.length} problem face${markers.faces.length === 1 ? '' : 's'}, ${markers.vertices.length} problem vert${markers.vertices.length === 1 ? 'ex' : 'ices'}`;
    this.box.textContent = [count, ...markers.messages.slice(0, 6)].join('\n');
    this.box.style.whiteSpace = 'pre-wrap';
    this.box.style.display = 'block';
    this.ctx.view.requestRender();
  }

  clear(): void {
    if (this.markers) {
      this.ctx.overlays.remove(this.markers);
      this.markers.traverse((o) => {
        if (o instanceof THREE.Mesh || o instanceof THREE.Points) {
          o.geometry.dispose();
          (o.material as THREE.Material).dispose();
        }
      });
    }
    this.markers = null;
    this.box.style.display = 'none';
  }
}
