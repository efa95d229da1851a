import { SPEC_STREAMLINE_FIELDS } from '@fieldline/contracts';
import * as THREE from 'three';
import type { FunctionArgs } from '../messaging.ts';
import { createLineMaterial } from '../scene/materials.ts';
import { LatestOnly } from '../worker/worker-client.ts';
import type { StreamlineReply } from '../worker/worker-protocol.ts';
import type { ViewerContext } from './context.ts';

export type StreamlineSettings = FunctionArgs['setStreamlines'][0];

/**
 * Streamlines of any vector field of the catalogue, traced in the worker (latest request only) from seeds
 * in the volume or on the section plane; coloured like the surface when they follow the field it shows.
 */
export class StreamlinesLayer {
  settings: StreamlineSettings = { enabled: false, seeds: 150, field: 'E', seedPlacement: 'volume' };
  private lines: THREE.LineSegments | null = null;
  private readonly tracer: LatestOnly<{ serial: number; frame: number }, StreamlineReply | null>;

  constructor(private readonly ctx: ViewerContext) {
    this.tracer = new LatestOnly(
      (job) => this.trace(job.serial),
      (reply, job) => {
        if (reply && job.serial === ctx.serial) this.show(reply);
      },
      (err) => console.warn('viewer: streamlines failed', err),
    );
  }

  get enabled(): boolean {
    return this.settings.enabled;
  }

  setStreamlines(settings: StreamlineSettings): void {
    this.settings = settings;
    this.refresh();
  }

  /** The vector field the lines follow: a name of the catalogue (the spec-era 'E' / 'H' map to one). */
  get fieldName(): string {
    const f = this.settings.field;
    return SPEC_STREAMLINE_FIELDS[f] ?? f;
  }

  refresh(): void {
    if (!this.settings.enabled) {
      this.remove();
      this.ctx.view.requestRender();
      return;
    }
    this.tracer.request({ serial: this.ctx.serial, frame: this.ctx.layers.animation.frame });
  }

  /** A new frame: retrace when shown. */
  frameChanged(frame: number): void {
    if (this.settings.enabled) this.tracer.request({ serial: this.ctx.serial, frame });
  }

  private async trace(serial: number): Promise<StreamlineReply | null> {
    const { ctx } = this;
    const L = ctx.layers;
    const m = L.model.model;
    if (!m || serial !== ctx.serial || !m.mesh.tetrahedra) return null;
    const view = L.model.fields.view({ name: this.fieldName, display: 'magnitude' }, L.animation.frame);
    if (!view.vectors || !view.magnitude) return null;
    const plane =
      this.settings.seedPlacement === 'section' && L.section.active
        ? { normal: L.section.normal, offset: L.section.offset }
        : undefined;
    ctx.setBusy(1);
    try {
      return await ctx.worker.run('streamlines', {
        vectors: view.vectors.slice(),
        magnitudes: view.magnitude.slice(),
        count: this.settings.seeds,
        ...(plane ? { plane } : {}),
      });
    } finally {
      ctx.setBusy(-1);
    }
  }

  private show(reply: StreamlineReply): void {
    this.remove();
    if (!this.settings.enabled) return;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(reply.segments, 3));
    geometry.setAttribute('scalar', new THREE.BufferAttribute(reply.magnitudes, 1));
    const material = createLineMaterial(this.ctx.colors);
    material.uniforms.uOpacity!.value = 1;
    material.depthWrite = true;
    material.transparent = false;
    this.lines = new THREE.LineSegments(geometry, material);
    this.lines.frustumCulled = false;
    this.ctx.root.add(this.lines);
    this.style();
    this.ctx.stats.streamlineSegments = reply.segments.length / 6;
    this.ctx.view.requestRender();
  }

  /** Field colours when the lines show the field on display (same legend); a plain light colour otherwise. */
  style(): void {
    if (!this.lines) return;
    const u = (this.lines.material as THREE.ShaderMaterial).uniforms;
    const current = this.ctx.layers.surface.current;
    u.uUseField!.value = current?.name === this.fieldName && !!current?.magnitude;
    (u.uColor!.value as THREE.Color).set(0xe6f0ff);
  }

  remove(): void {
    if (!this.lines) return;
    this.ctx.root.remove(this.lines);
    this.lines.geometry.dispose();
    (this.lines.material as THREE.Material).dispose();
    this.lines = null;
    this.ctx.stats.streamlineSegments = 0;
  }
}
