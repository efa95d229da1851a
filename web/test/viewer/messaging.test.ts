// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseViewerMessage } from '../../src/viewer/messaging.ts';

const ORIGIN = 'http://localhost:8080';
const msg = (data: unknown, origin = ORIGIN) => parseViewerMessage({ origin, data }, ORIGIN);

describe('viewer message validation', () => {
  it('accepts the protocol messages from its own origin', () => {
    expect(msg({ type: 'parent-hello' })).toEqual({ ok: true, command: { type: 'parent-hello' } });
    const load = msg({
      type: 'load-mesh',
      mesh: { positions: new Float32Array(9), triangles: new Uint32Array([0, 1, 2]) },
    });
    expect(load.ok).toBe(true);
    if (load.ok && load.command.type === 'load-mesh') {
      expect(load.command.mesh.units).toBe('m');
      expect(load.command.mesh.bodies).toEqual([]);
    }
    const call = msg({ type: 'call-function', name: 'setSectionAxis', args: [[0, 1, 1]] });
    expect(call).toEqual({
      ok: true,
      command: { type: 'call-function', name: 'setSectionAxis', args: [[0, 1, 1]] },
    });
    const lines = msg({ type: 'call-function', name: 'setStreamlines', args: [{ enabled: true }] });
    expect(lines.ok && lines.command.type === 'call-function' && lines.command.args).toEqual([
      { enabled: true, seeds: 150, field: 'E', seedPlacement: 'volume' },
    ]);
  });

  it('ignores messages from any other origin', () => {
    const out = msg({ type: 'parent-hello' }, 'https://evil.example');
    expect(out.ok).toBe(false);
  });

  it('rejects malformed messages and bad arguments', () => {
    expect(msg({ type: 'load-mesh', mesh: { positions: [0, 0, 0], triangles: [] } }).ok).toBe(false);
    expect(msg({ type: 'call-function', name: 'deleteEverything', args: [] }).ok).toBe(false);
    expect(msg({ type: 'call-function', name: 'setRenderMode', args: [4] }).ok).toBe(false);
    expect(msg({ type: 'call-function', name: 'setVectorScale', args: [6] }).ok).toBe(false);
    expect(msg({ type: 'call-function', name: 'setVectorScale', args: [0.05] }).ok).toBe(false);
    expect(msg({ type: 'call-function', name: 'setAnimationSpeed', args: [0.4] }).ok).toBe(false);
    expect(msg({ type: 'call-function', name: 'setColorMap', args: ['jet'] }).ok).toBe(false);
    expect(msg({ type: 'call-function', name: 'setSectionOffset', args: [Number.NaN] }).ok).toBe(false);
    expect(msg('load-mesh').ok).toBe(false);
    expect(msg(null).ok).toBe(false);
  });
});
