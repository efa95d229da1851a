import type { ViewerFunctionName } from '@fieldline/contracts';
import type { FieldMode } from '../field-state.ts';
import type { FunctionArgs } from '../messaging.ts';
import type { LayerName, Layers } from './context.ts';
import type { RenderMode } from './model-layer.ts';

/** One protocol function: the layer that owns what it changes, and the call on that layer. */
export interface Command<K extends ViewerFunctionName> {
  layer: LayerName;
  run: (layers: Layers, ...args: FunctionArgs[K]) => void;
}

/**
 * The command table: every function of the viewer protocol (contracts VIEWER_FUNCTIONS, spec 001 §7) and
 * the layer it goes to. The arguments were validated by messaging.ts (FUNCTION_ARGS).
 */
export const COMMANDS: { [K in ViewerFunctionName]: Command<K> } = {
  setRenderMode: { layer: 'model', run: (l, mode) => l.model.setRenderMode(mode as RenderMode) },
  setBodyVisibility: { layer: 'model', run: (l, body, visible) => l.model.setBodyVisibility(body, visible) },
  clearData: { layer: 'model', run: (l) => l.model.clear() },

  setField: { layer: 'surface', run: (l, selection) => l.surface.setField(selection) },
  setFieldMode: { layer: 'surface', run: (l, mode) => l.surface.setFieldMode(mode as FieldMode) },
  setColorMap: { layer: 'surface', run: (l, map) => l.surface.setColorMap(map) },
  setColorRange: { layer: 'surface', run: (l, min, max) => l.surface.setColorRange(min, max) },
  setLogScale: { layer: 'surface', run: (l, on) => l.surface.setLogScale(on) },

  setVectorScale: { layer: 'arrows', run: (l, scale) => l.arrows.setVectorScale(scale) },
  setVectorDensity: { layer: 'arrows', run: (l, density) => l.arrows.setVectorDensity(density) },

  setDeformation: { layer: 'deformation', run: (l, setting) => l.deformation.setDeformation(setting) },

  setStreamlines: { layer: 'streamlines', run: (l, settings) => l.streamlines.setStreamlines(settings) },

  setViewerMode: { layer: 'section', run: (l, mode) => l.section.setViewerMode(mode) },
  setSectionAxis: { layer: 'section', run: (l, axis) => l.section.setAxis(axis) },
  setSectionOffset: { layer: 'section', run: (l, offset) => l.section.setOffset(offset) },
  setSectionLock: { layer: 'section', run: (l, locked) => l.section.setLock(locked) },
  setWheelScrubs: { layer: 'section', run: (l, on) => l.section.setWheelScrubs(on) },

  setFacePicking: { layer: 'picking', run: (l, on) => l.picking.setFacePicking(on) },
  markFaces: { layer: 'marks', run: (l, marks) => l.marks.markFaces(marks) },
  markArrows: { layer: 'arrowMarks', run: (l, arrows) => l.arrowMarks.markArrows(arrows) },

  highlightProblems: { layer: 'problems', run: (l, markers) => l.problems.show(markers) },

  playAnimation: { layer: 'animation', run: (l) => l.animation.play() },
  pauseAnimation: { layer: 'animation', run: (l) => l.animation.pause() },
  nextFrame: { layer: 'animation', run: (l) => l.animation.next() },
  previousFrame: { layer: 'animation', run: (l) => l.animation.previous() },
  setFrame: { layer: 'animation', run: (l, index) => l.animation.setFrame(index) },
  setAnimationSpeed: { layer: 'animation', run: (l, fps) => l.animation.setSpeed(fps) },

  zoomToFit: { layer: 'camera', run: (l) => l.camera.zoomToFit() },
  resetView: { layer: 'camera', run: (l) => l.camera.resetView() },
  setCamera: { layer: 'camera', run: (l, state) => l.camera.setCamera(state) },
  setSyncEvents: { layer: 'camera', run: (l, on) => l.camera.setSyncEvents(on) },
  toggleFullscreen: { layer: 'camera', run: (l) => l.camera.toggleFullscreen() },

  exportPng: { layer: 'exporter', run: (l) => l.exporter.exportPng() },
};

/** Runs a validated call-function message on its layer. */
export function runCommand<K extends ViewerFunctionName>(
  layers: Layers,
  name: K,
  args: FunctionArgs[K],
): LayerName {
  const command = COMMANDS[name] as Command<K>;
  command.run(layers, ...args);
  return command.layer;
}
