import type { DeformationSetting } from '@fieldline/contracts';
import { drawLegend, LEGEND_WIDTH } from '../ui/legend.ts';
import type { ViewerContext } from './context.ts';

/** What the viewer shows, for the browser tests and the benchmark (window.fieldlineViewer.shown). */
export interface Shown {
  field: string | null;
  legend: { title: string; units: string; min: number; max: number } | null;
  deformation: DeformationSetting;
  position: [number, number, number] | null;
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
        ? { title: legend.title, units: legend.units, min: legend.range.min, max: legend.range.max }
        : null,
      deformation: L.deformation.setting,
      position: p && 3 * i + 2 < p.length ? [p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!] : null,
    };
  }
}
