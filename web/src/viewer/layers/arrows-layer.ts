import * as THREE from 'three';
import { interpolateVectorsAtSlice } from '../geometry/slice.ts';
import { ArrowGlyphs } from '../scene/arrow-glyphs.ts';
import type { ViewerContext } from './context.ts';

const MAX_ARROWS = 4000;

/**
 * Vector arrows of the shown field: on the surface (shell modes), through the volume (wireframe, x-ray) or
 * on the section's cut. Owns the vector scale and density and the sites the worker picked for them.
 */
export class ArrowsLayer {
  private readonly glyphs: ArrowGlyphs;
  private scale = 1;
  private density = 0.2;
  private volumeSites: Uint32Array | null = null;
  private surfaceSites: Uint32Array | null = null;

  constructor(private readonly ctx: ViewerContext) {
    this.glyphs = new ArrowGlyphs(ctx.colors);
    ctx.root.add(this.glyphs.group);
  }

  setVectorScale(scale: number): void {
    this.scale = scale;
    this.update();
  }

  setVectorDensity(density: number): void {
    this.density = density;
    this.updateSites();
  }

  /** How many arrows the density asks for (the section's cut picks as many sites). */
  get count(): number {
    return Math.max(1, Math.round(this.density * MAX_ARROWS));
  }

  /** The model is going away. */
  dispose(): void {
    this.glyphs.clear();
    this.volumeSites = null;
    this.surfaceSites = null;
  }

  /** Asks the worker for new sites (or the section for a new cut, whose vertices are its sites). */
  updateSites(): void {
    const L = this.ctx.layers;
    if (!L.model.model) return;
    const count = this.count;
    if (L.section.active) {
      L.section.requestSlice();
      return;
    }
    const mode = L.model.renderMode;
    const source = mode === 1 || mode === 2 ? 'volume' : 'surface';
    const serial = this.ctx.serial;
    this.ctx.worker
      .run('sites', { source, count })
      .then((sites) => {
        if (serial !== this.ctx.serial || !L.model.model) return;
        this.volumeSites = source === 'volume' ? sites : null;
        this.surfaceSites = source === 'surface' ? sites : null;
        this.update();
      })
      .catch((err) => console.warn('viewer: arrow sites failed', err));
  }

  /** Redraws the arrows from the shown field's vectors at the current sites. */
  update(): void {
    const { ctx } = this;
    const L = ctx.layers;
    const m = L.model.model;
    const view = L.surface.current;
    if (!m || !view?.showVectors || !view.vectors) {
      this.glyphs.visible = false;
      ctx.stats.arrows = 0;
      ctx.view.requestRender();
      return;
    }
    let sites: Float32Array;
    let vectors: Float32Array;
    let spacingDim: 2 | 3 = 2;
    if (L.section.active) {
      const slice = L.section.slice;
      const chosen = L.section.sites;
      if (!slice || !chosen) {
        this.glyphs.visible = false;
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
      const chosen = this.surfaceSites ?? this.volumeSites;
      if (!chosen) {
        this.glyphs.visible = false;
        return;
      }
      if (this.volumeSites) spacingDim = 3;
      const visibleBody = L.model.vertexVisibility();
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
    this.glyphs.update(sites, vectors, base, this.scale, L.surface.range.max);
    const mode = L.model.renderMode;
    this.glyphs.neutral = L.section.active || mode === 0 || mode === 3;
    this.glyphs.visible = true;
    ctx.stats.arrows = sites.length / 3;
    ctx.view.requestRender();
  }
}
