import type { FieldSelection, ViewerFields } from '@fieldline/contracts';
import { type ColorRange, safeRange } from '../color/color-scale.ts';
import type { ColorMapName } from '../color/colormaps.ts';
import { defaultSelection, type FieldMode, type FieldView, selectionForMode } from '../field-state.ts';
import { applyRange, lutTexture } from '../scene/materials.ts';
import { LegendView } from '../ui/legend.ts';
import type { ViewerContext } from './context.ts';

/**
 * Surface colouring and its legend: which field of the result's catalogue colours the model (setField, or
 * the spec's setFieldMode alias), the colour map, the range (auto or the user's) and log scale. Any name of
 * the catalogue works; the layer never names a physics field.
 */
export class SurfaceLayer {
  /** what the surface shows; null until a result with fields is loaded (then its default) */
  selection: FieldSelection | null = null;
  /** the selection's values at the current frame */
  current: FieldView | null = null;
  range: ColorRange = safeRange(0, 1, false);
  /** the selection's own range over its values (what an auto legend shows) */
  private dataRange: ColorRange = safeRange(0, 1, false);
  readonly legend: LegendView;
  private colorMap: ColorMapName = 'viridis';
  private userMin: number | null = null;
  private userMax: number | null = null;
  private logScale = false;

  constructor(private readonly ctx: ViewerContext) {
    this.legend = new LegendView(ctx.container);
  }

  setField(selection: FieldSelection): void {
    const t0 = performance.now();
    this.selection = selection;
    this.apply();
    this.ctx.timeUntilRendered(t0, (ms) => {
      this.ctx.stats.fieldSwitchMs = ms;
    });
  }

  /** The spec's surface field modes (0–3) as selections of the catalogue. */
  setFieldMode(mode: FieldMode): void {
    this.setField(selectionForMode(mode));
  }

  setColorMap(map: ColorMapName): void {
    this.colorMap = map;
    this.ctx.colors.uLut.value = lutTexture(map);
    this.apply();
  }

  setColorRange(min: number | null, max: number | null): void {
    this.userMin = min;
    this.userMax = max;
    this.apply();
  }

  setLogScale(on: boolean): void {
    this.logScale = on;
    this.apply();
  }

  /** A new result: keep the user's choice when it has that field; otherwise the result's default. */
  keepSelectionOrDefault(fields: ViewerFields | undefined): void {
    if (!this.selection || !this.ctx.layers.model.fields.field(this.selection.name))
      this.selection = defaultSelection(fields);
  }

  reset(): void {
    this.current = null;
    this.legend.show(null);
  }

  /** Colours the model by the selection at the current frame and tells the layers that follow it. */
  apply(): void {
    const L = this.ctx.layers;
    const m = L.model.model;
    if (!m) return;
    const fields = L.model.fields;
    const view = fields.view(this.selection, L.animation.frame);
    this.current = view;
    const hasField = !!view.magnitude;
    if (view.magnitude) {
      // Frames and modes only swap this one attribute; geometry stays on the GPU.
      m.scalar.array = view.magnitude;
      m.scalar.needsUpdate = true;
    }
    for (const mat of m.materials) mat.uniforms.uUseField!.value = hasField;
    const auto = fields.autoRange(this.selection, this.logScale);
    this.dataRange = auto;
    this.range = safeRange(this.userMin ?? auto.min, this.userMax ?? auto.max, this.logScale);
    applyRange(this.ctx.colors, this.range);
    this.legend.show(
      hasField
        ? {
            title: view.label,
            units: view.units,
            range: this.range,
            map: this.colorMap,
            auto: this.userMin === null && this.userMax === null,
          }
        : null,
    );
    L.model.showFieldOnEdges(hasField);
    L.section.fieldChanged();
    L.streamlines.style();
    L.arrows.update();
    L.hud.update();
    this.ctx.view.requestRender();
    this.reportLegend();
  }

  /** With setSyncEvents: the legend's range and the data's, so linked panes can share one range. */
  reportLegend(): void {
    if (!this.ctx.syncEvents || !this.current?.magnitude) return;
    this.ctx.emit.event({
      kind: 'legend',
      field: this.current.name,
      min: this.range.min,
      max: this.range.max,
      dataMin: this.dataRange.min,
      dataMax: this.dataRange.max,
    });
  }

  /** The badge's line when the chosen field is missing from these results. */
  badgeLines(): string[] {
    const L = this.ctx.layers;
    if (L.model.model && this.current && !this.current.magnitude && L.model.fields.hasFields) {
      return [`No ${this.current.name.replaceAll('_', ' ')} in these results`];
    }
    return [];
  }
}
