import { VIEWER_FUNCTIONS, type ViewerFunctionName } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import { COMMANDS, runCommand } from '../../src/viewer/layers/commands.ts';
import type { Layers } from '../../src/viewer/layers/context.ts';
import { buildLayers } from '../../src/viewer/layers/index.ts';
import type { FunctionArgs } from '../../src/viewer/messaging.ts';
import { fakeContext } from './layer-harness.ts';

/** Layers that record which layer and method a command reached, and with what. */
function recordingLayers() {
  const calls: { layer: string; method: string; args: unknown[] }[] = [];
  const layers = new Proxy(
    {},
    {
      get: (_, layer) =>
        new Proxy(
          {},
          {
            get:
              (__, method) =>
              (...args: unknown[]) =>
                calls.push({ layer: String(layer), method: String(method), args }),
          },
        ),
    },
  ) as Layers;
  return { layers, calls };
}

const sample = (name: ViewerFunctionName): unknown[] => [`${name}-a`, `${name}-b`];

describe('the command table', () => {
  it('maps every protocol function, and only those, to a layer of the viewer', () => {
    expect(Object.keys(COMMANDS).sort()).toEqual([...VIEWER_FUNCTIONS].sort());
    const { ctx } = fakeContext();
    const layers = buildLayers(ctx);
    for (const name of VIEWER_FUNCTIONS) expect(Object.keys(layers)).toContain(COMMANDS[name].layer);
  });

  it('runs each function on its own layer, once, with the message arguments', () => {
    const { ctx } = fakeContext();
    const real = buildLayers(ctx);
    for (const name of VIEWER_FUNCTIONS) {
      const { layers, calls } = recordingLayers();
      const layer = runCommand(layers, name, sample(name) as FunctionArgs[typeof name]);
      expect(layer).toBe(COMMANDS[name].layer);
      expect(calls, name).toHaveLength(1);
      const [call] = calls;
      expect(call!.layer, name).toBe(COMMANDS[name].layer);
      // The method exists on the real layer.
      const target = real[COMMANDS[name].layer] as unknown as Record<string, unknown>;
      expect(typeof target[call!.method], `${name} → ${call!.layer}.${call!.method}`).toBe('function');
      // Arguments pass through in order (functions without arguments forward none).
      expect(sample(name).slice(0, call!.args.length), name).toEqual(call!.args);
    }
  });

  it('groups the protocol by feature', () => {
    const byLayer: Record<string, string[]> = {};
    for (const name of VIEWER_FUNCTIONS) {
      const layer = COMMANDS[name].layer;
      byLayer[layer] = [...(byLayer[layer] ?? []), name];
    }
    expect(byLayer.section).toEqual([
      'setViewerMode',
      'setSectionAxis',
      'setSectionOffset',
      'setSectionLock',
      'setWheelScrubs',
    ]);
    expect(byLayer.surface).toEqual([
      'setFieldMode',
      'setField',
      'setColorMap',
      'setColorRange',
      'setLogScale',
    ]);
    expect(byLayer.arrows).toEqual(['setVectorScale', 'setVectorDensity']);
    expect(byLayer.deformation).toEqual(['setDeformation']);
    expect(byLayer.streamlines).toEqual(['setStreamlines']);
    expect(byLayer.picking).toEqual(['setFacePicking']);
    expect(byLayer.marks).toEqual(['markFaces']);
    expect(byLayer.arrowMarks).toEqual(['markArrows']);
    expect(byLayer.problems).toEqual(['highlightProblems']);
    expect(byLayer.exporter).toEqual(['exportPng']);
  });
});
