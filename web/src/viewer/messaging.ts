import {
  ArrowMark,
  CameraState,
  DeformationSetting,
  FaceMark,
  FieldSelection,
  ParentToViewerMessage,
  ProblemMarkers,
  type ViewerFunctionName,
  type ViewerToParentMessage,
} from '@fieldline/contracts';
import { z } from 'zod';
import { COLOR_MAPS } from './color/colormaps.ts';

/**
 * The viewer's side of the window-message protocol (spec 001 §7): only messages from our own origin,
 * and only messages whose shape (and, for call-function, whose arguments) validate, are acted on.
 */

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

/** Argument lists each function accepts (after the name). */
export const FUNCTION_ARGS = {
  setRenderMode: z.tuple([z.number().int().min(0).max(3)]),
  setFieldMode: z.tuple([z.number().int().min(0).max(3)]),
  setField: z.tuple([FieldSelection]),
  setDeformation: z.tuple([DeformationSetting]),
  setVectorScale: z.tuple([z.number().min(0.1).max(5)]),
  setVectorDensity: z.tuple([z.number().min(0).max(1)]),
  setColorMap: z.tuple([z.enum(COLOR_MAPS)]),
  setColorRange: z.tuple([finite.nullable(), finite.nullable()]),
  setLogScale: z.tuple([z.boolean()]),
  setStreamlines: z.tuple([
    z.object({
      enabled: z.boolean(),
      seeds: z.number().int().min(1).max(2000).default(150),
      /** a vector field's name; the spec-era 'E' and 'H' map to names by SPEC_STREAMLINE_FIELDS */
      field: z.string().min(1).default('E'),
      /** 'volume': random points inside the mesh, stronger field preferred; 'section': on the cut plane */
      seedPlacement: z.enum(['volume', 'section']).default('volume'),
    }),
  ]),
  zoomToFit: z.tuple([]),
  resetView: z.tuple([]),
  setCamera: z.tuple([CameraState]),
  setSyncEvents: z.tuple([z.boolean()]),
  toggleFullscreen: z.tuple([]),
  exportPng: z.tuple([]),
  setViewerMode: z.tuple([z.enum(['main', 'section'])]),
  setSectionAxis: z.tuple([z.union([z.enum(['x', 'y', 'z']), z.tuple([finite, finite, finite])])]),
  setSectionOffset: z.tuple([finite]),
  setSectionLock: z.tuple([z.boolean()]),
  setWheelScrubs: z.tuple([z.boolean()]),
  setBodyVisibility: z.tuple([z.number().int().nonnegative(), z.boolean()]),
  setFacePicking: z.tuple([z.boolean()]),
  playAnimation: z.tuple([]),
  pauseAnimation: z.tuple([]),
  nextFrame: z.tuple([]),
  previousFrame: z.tuple([]),
  setFrame: z.tuple([z.number().int().nonnegative()]),
  setAnimationSpeed: z.tuple([z.number().min(0.5).max(10)]),
  highlightProblems: z.tuple([ProblemMarkers]),
  markFaces: z.tuple([z.array(FaceMark)]),
  markArrows: z.tuple([z.array(ArrowMark)]),
  clearData: z.tuple([]),
} satisfies Record<ViewerFunctionName, z.ZodTypeAny>;

export type FunctionArgs = { [K in ViewerFunctionName]: z.infer<(typeof FUNCTION_ARGS)[K]> };

export type ViewerCommand =
  | { type: 'parent-hello' }
  | Extract<ParentToViewerMessage, { type: 'load-mesh' }>
  | {
      [K in ViewerFunctionName]: { type: 'call-function'; name: K; args: FunctionArgs[K] };
    }[ViewerFunctionName];

export type ParseOutcome = { ok: true; command: ViewerCommand } | { ok: false; reason: string };

/** Checks origin, message shape and call arguments. `ownOrigin` is window.location.origin. */
export function parseViewerMessage(
  event: { origin: string; data: unknown },
  ownOrigin: string,
): ParseOutcome {
  if (event.origin !== ownOrigin)
    return { ok: false, reason: `ignored a message from origin ${event.origin}` };
  const parsed = ParentToViewerMessage.safeParse(event.data);
  if (!parsed.success)
    return { ok: false, reason: `ignored a malformed message: ${parsed.error.issues[0]?.message}` };
  const message = parsed.data;
  if (message.type !== 'call-function') return { ok: true, command: message };
  const args = FUNCTION_ARGS[message.name].safeParse(message.args);
  if (!args.success) {
    return { ok: false, reason: `ignored ${message.name}: bad arguments (${args.error.issues[0]?.message})` };
  }
  return {
    ok: true,
    command: { type: 'call-function', name: message.name, args: args.data } as ViewerCommand,
  };
}

/** Posts to the embedding page, same origin only. */
export function postToParent(message: ViewerToParentMessage, transfer: Transferable[] = []): void {
  window.parent.postMessage(message, window.location.origin, transfer);
}
