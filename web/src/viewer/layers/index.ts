import { AnimationLayer } from './animation-layer.ts';
import { ArrowMarksLayer } from './arrow-marks-layer.ts';
import { ArrowsLayer } from './arrows-layer.ts';
import { CameraLayer } from './camera-layer.ts';
import type { Layers, ViewerContext } from './context.ts';
import { DeformationLayer } from './deformation-layer.ts';
import { ExportLayer } from './export-layer.ts';
import { HudLayer } from './hud-layer.ts';
import { MarksLayer } from './marks-layer.ts';
import { ModelLayer } from './model-layer.ts';
import { PickingLayer } from './picking-layer.ts';
import { ProblemsLayer } from './problems-layer.ts';
import { SectionLayer } from './section-layer.ts';
import { StreamlinesLayer } from './streamlines-layer.ts';
import { SurfaceLayer } from './surface-layer.ts';

/**
 * Builds every layer into `ctx.layers`. The order matters only for what is added to the scene and the page:
 * arrows, then the undeformed outline; legend, badge, tooltip, problems box, status line.
 */
export function buildLayers(ctx: ViewerContext): Layers {
  const layers = ctx.layers;
  layers.arrows = new ArrowsLayer(ctx);
  layers.deformation = new DeformationLayer(ctx);
  layers.surface = new SurfaceLayer(ctx);
  layers.hud = new HudLayer(ctx);
  layers.picking = new PickingLayer(ctx);
  layers.marks = new MarksLayer(ctx);
  layers.arrowMarks = new ArrowMarksLayer(ctx);
  layers.problems = new ProblemsLayer(ctx);
  layers.model = new ModelLayer(ctx);
  layers.animation = new AnimationLayer(ctx);
  layers.section = new SectionLayer(ctx);
  layers.streamlines = new StreamlinesLayer(ctx);
  layers.camera = new CameraLayer(ctx);
  layers.exporter = new ExportLayer(ctx);
  return layers;
}
