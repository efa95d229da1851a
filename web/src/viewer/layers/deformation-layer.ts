import { type DeformationSetting, metresPerUnit } from '@fieldline/contracts';
import * as THREE from 'three';
import type { ViewerContext } from './context.ts';

/**
 * Warps the surface by a deformation field × scale (the deformed shape of a structural or vibration result,
 * docs/multiphysics.md §6) and shows the undeformed shape's feature edges as a faint outline. Owns the
 * setting (setDeformation) and the swing of a playing mode shape. The surface's position attribute is
 * shared with its edges, so both follow; the undeformed positions are kept to restore.
 */
export class DeformationLayer {
  readonly outline: THREE.LineSegments;
  setting: DeformationSetting = { field: null, scale: 0 };
  /** −1…1 while a mode shape swings (mode-axis animation), else 1 */
  private swing = 1;
  private geometry: THREE.BufferGeometry | null = null;
  private base: Float32Array | null = null;
  private warped: Float32Array | null = null;
  private outlineBuilt = false;
  /** the deformed shape has been framed since this model was attached */
  private framed = false;

  constructor(private readonly ctx: ViewerContext) {
    const material = new THREE.LineBasicMaterial({
      color: 0x9aa7b6,
      transparent: true,
      opacity: 0.55,
      depthWrite: false,
    });
    this.outline = new THREE.LineSegments(new THREE.BufferGeometry(), material);
    this.outline.visible = false;
    this.outline.frustumCulled = false;
    this.outline.renderOrder = 2;
    this.outline.name = 'undeformed-outline';
    ctx.root.add(this.outline);
  }

  setDeformation(setting: DeformationSetting): void {
    const newlyShown = setting.field !== null && (this.setting.field === null || !this.framed);
    this.setting = setting;
    this.apply();
    this.fitToShape(newlyShown);
  }

  /**
   * "Zoom to fit" frames what is drawn: the deformed shape and the undeformed outline (qa29: the bar was
   * drawn past the frame and Zoom to fit ignored the deformation). The camera is refitted when the deformed
   * shape first appears; moving the exaggeration slider leaves it where the user put it.
   */
  private fitToShape(refit: boolean): void {
    const base = this.base;
    if (!base) return;
    const view = this.ctx.view;
    const box = new THREE.Box3().setFromArray(base);
    if (this.warped) box.union(new THREE.Box3().setFromArray(this.warped));
    view.setBounds(box);
    view.fitPoints = this.warped ?? base;
    if (refit && this.warped) {
      view.zoomToFit();
      this.framed = true;
    }
  }

  /** The oscillation's phase (radians) of a playing mode shape; 0 stops the swing. */
  swingTo(phase: number): void {
    this.swing = phase === 0 ? 1 : Math.sin(phase);
    this.apply();
  }

  resetSwing(): void {
    this.swing = 1;
  }

  /** A new frame: the deformation follows it when one is shown. */
  frameChanged(): void {
    if (!this.setting.field) return;
    this.apply();
    this.fitToShape(false);
  }

  /** Warps the mesh by the chosen deformation field at the current frame. */
  apply(): void {
    const { field, scale } = this.setting;
    const L = this.ctx.layers;
    const offsets = field ? L.model.fields.deformationAt(field, L.animation.frame) : null;
    // Fields are SI (metres), vertices are in the model's unit.
    const perUnit = metresPerUnit(L.model.model?.mesh.units);
    this.warp(offsets, (scale * this.swing) / perUnit);
    this.ctx.view.requestRender();
  }

  /** A new model: its surface geometry and undeformed vertex positions (model units). */
  attach(geometry: THREE.BufferGeometry, positions: Float32Array): void {
    this.clear();
    this.geometry = geometry;
    this.base = positions;
  }

  clear(): void {
    this.geometry = null;
    this.base = null;
    this.warped = null;
    this.outline.geometry.dispose();
    this.outline.geometry = new THREE.BufferGeometry();
    this.outline.visible = false;
    this.outlineBuilt = false;
    this.framed = false;
  }

  /** Current vertex positions (deformed when a deformation is shown). */
  get positions(): Float32Array | null {
    return this.warped ?? this.base;
  }

  /** Shows base + scale·offsets (xyz per vertex); null or scale 0 restores the undeformed shape. A negative
   * scale is the mirrored half of a swinging mode shape. */
  warp(offsets: Float32Array | null, scale: number): void {
    const geometry = this.geometry;
    const base = this.base;
    if (!geometry || !base) return;
    const position = geometry.getAttribute('position') as THREE.BufferAttribute;
    if (!offsets || scale === 0 || !Number.isFinite(scale) || offsets.length !== base.length) {
      this.warped = null;
      position.array = base;
      position.needsUpdate = true;
      this.outline.visible = false;
      return;
    }
    if (!this.warped) this.warped = new Float32Array(base.length);
    const out = this.warped;
    for (let i = 0; i < base.length; i++) out[i] = base[i]! + scale * offsets[i]!;
    position.array = out;
    position.needsUpdate = true;
    geometry.computeBoundingSphere();
    this.buildOutline();
    this.outline.visible = true;
  }

  private buildOutline(): void {
    if (this.outlineBuilt || !this.geometry || !this.base) return;
    const undeformed = new THREE.BufferGeometry();
    undeformed.setAttribute('position', new THREE.BufferAttribute(this.base, 3));
    const index = this.geometry.getIndex();
    if (index) undeformed.setIndex(index);
    // Feature edges only (creases above 30°): an outline, not the whole wireframe.
    this.outline.geometry.dispose();
    this.outline.geometry = new THREE.EdgesGeometry(undeformed, 30);
    undeformed.dispose();
    this.outlineBuilt = true;
  }
}
