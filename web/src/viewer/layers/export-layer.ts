import type { CameraState, DeformationSetting } from '@fieldline/contracts';
import * as THREE from 'three';
import { drawLegend, LEGEND_WIDTH } from '../ui/legend.ts';
import type { ViewerContext } from './context.ts';

/** What the viewer shows, for the browser tests and the benchmark (window.fieldlineViewer.shown). */
export interface Shown {
  field: string | null;
  /** `titleLines`, `titleSize`: the title as drawn (CSS px) */
  legend: {
    title: string;
    units: string;
    min: number;
    max: number;
    titleLines?: string[];
    titleSize?: number;
  } | null;
  deformation: DeformationSetting;
  position: [number, number, number] | null;
  /** where the camera is and looks at (model units) */
  camera: CameraState;
  /** where the drawn (deformed) vertices fall in the view: normalised device coordinates, −1…1 is in frame */
  extent: { x: [number, number]; y: [number, number] } | null;
  /** surface triangles marked per tone (markFaces) */
  marks: Partial<Record<'constraint' | 'load' | 'other' | 'active', number>>;
  /** surface triangles marked per colour ('#a35cff'), so a test can tell port 1's from port 2's */
  markColours: Record<string, number>;
  /** arrows drawn by markArrows (a coil's current direction) */
  arrowMarks: number;
}

/** Export: the picture (exportPng, with the legend and the badge drawn in) and what is shown, for tests. */
export class ExportLayer {
  constructor(private readonly ctx: ViewerContext) {}

  /** exportPng: answers with a viewer-event { kind: 'png', dataUrl }. */
  exportPng(): void {
    this.ctx.emit.event({ kind: 'png', dataUrl: this.png() });
  }

  png(): string {
    const L = this.ctx.layers;
    const legend = L.surface.legend.current;
    const canvas = this.ctx.view.capture((ctx, scale) => {
      if (!legend) return;
      ctx.save();
      ctx.scale(scale, scale);
      const width = ctx.canvas.width / scale;
      drawLegend(ctx, width - LEGEND_WIDTH - 12, 12, legend);
      ctx.restore();
      const badge = L.hud.text;
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
   * The coloured field and its legend, the deformation, and the drawn position of vertex `i` (model units;
   * deformed when a deformation is shown).
   */
  shown(i = 0): Shown {
    const L = this.ctx.layers;
    const legend = L.surface.legend.current;
    const p = L.deformation.positions;
    return {
      field: L.surface.current?.name || null,
      legend: legend
        ? {
            title: legend.title,
            units: legend.units,
            min: legend.range.min,
            max: legend.range.max,
            ...(L.surface.legend.title
              ? { titleLines: L.surface.legend.title.lines, titleSize: L.surface.legend.title.size }
              : {}),
          }
        : null,
      deformation: L.deformation.setting,
      position: p && 3 * i + 2 < p.length ? [p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!] : null,
      camera: L.camera.state(),
      extent: p ? this.extent(p) : null,
      marks: { ...L.marks.counts },
      markColours: { ...L.marks.colours },
      arrowMarks: L.arrowMarks.count,
    };
  }

  private extent(p: Float32Array): Shown['extent'] {
    const camera = this.ctx.view.camera;
    camera.updateMatrixWorld();
    const v = new THREE.Vector3();
    const x: [number, number] = [Infinity, -Infinity];
    const y: [number, number] = [Infinity, -Infinity];
    for (let k = 0; k + 2 < p.length; k += 3) {
      v.set(p[k]!, p[k + 1]!, p[k + 2]!)
        .applyMatrix4(this.ctx.root.matrixWorld)
        .project(camera);
      x[0] = Math.min(x[0], v.x);
      x[1] = Math.max(x[1], v.x);
      y[0] = Math.min(y[0], v.y);
      y[1] = Math.max(y[1], v.y);
    }
    return { x, y };
  }
}
