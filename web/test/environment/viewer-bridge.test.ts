import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { meshToViewerMesh, resultsToViewer } from '../../src/environment/viewer-bridge/to-viewer-payload.ts';
import { facesOfPatch } from '../../src/environment/viewer-bridge/ViewerFrame.tsx';
import { ViewerBridge } from '../../src/environment/viewer-bridge/viewer-bridge.ts';
import { completedResults, tinyVolume } from './fakes.ts';

let frame: HTMLIFrameElement;
let sent: { message: { type: string; name?: string }; origin: string }[];

function stubViewerWindow() {
  const win = frame.contentWindow as Window;
  win.postMessage = ((message: { type: string }, origin: string) => {
    sent.push({ message, origin });
  }) as Window['postMessage'];
}

beforeEach(() => {
  frame = document.createElement('iframe');
  document.body.appendChild(frame);
  sent = [];
  stubViewerWindow();
});
afterEach(() => frame.remove());

const fromViewer = (data: unknown, origin = window.location.origin, source: unknown = frame.contentWindow) =>
  window.dispatchEvent(new MessageEvent('message', { data, origin, source: source as Window }));

describe('ViewerBridge (parent side of the viewer protocol)', () => {
  it('queues calls until viewer-ready, then delivers them in order to the viewer origin', () => {
    const bridge = new ViewerBridge(window, window.location.origin);
    bridge.attach(frame);
    bridge.loadMesh({ mesh: meshToViewerMesh(tinyVolume) });
    bridge.call('setRenderMode', 3);
    expect(sent).toEqual([]);
    fromViewer({ type: 'viewer-ready' });
    expect(sent.map((s) => s.message.type)).toEqual(['load-mesh', 'call-function']);
    expect(sent.every((s) => s.origin === window.location.origin)).toBe(true);
    bridge.call('zoomToFit');
    expect(sent.at(-1)?.message).toMatchObject({ type: 'call-function', name: 'zoomToFit' });
  });

  it('keeps only the latest queued scene', () => {
    const bridge = new ViewerBridge(window, window.location.origin);
    bridge.attach(frame);
    bridge.loadMesh({ mesh: meshToViewerMesh(tinyVolume) });
    bridge.loadMesh({ mesh: meshToViewerMesh({ ...tinyVolume, faces: [[0, 1, 2]] }) });
    fromViewer({ type: 'viewer-ready' });
    expect(sent.filter((s) => s.message.type === 'load-mesh')).toHaveLength(1);
  });

  it('ignores messages from other origins, other windows, and ones that fail the schema', () => {
    const bridge = new ViewerBridge(window, window.location.origin);
    bridge.attach(frame);
    const seen: string[] = [];
    bridge.onMessage((m) => seen.push(m.type));
    fromViewer({ type: 'viewer-ready' }, 'https://evil.example');
    fromViewer({ type: 'viewer-ready' }, window.location.origin, window);
    fromViewer({ type: 'viewer-event', event: { kind: 'face-picked', faceId: 0, point: [0, 0, 0] } });
    fromViewer({ type: 'unknown' });
    expect(seen).toEqual([]);
    expect(bridge.isReady()).toBe(false);
    fromViewer({ type: 'viewer-event', event: { kind: 'section-range', min: 0, max: 2, offset: 1 } });
    fromViewer({ type: 'viewer-animation-sync', currentFrame: 3, totalFrames: 50, playing: true });
    expect(seen).toEqual(['viewer-event', 'viewer-animation-sync']);
    // foreign origin, bad face id, unknown type are logged; another window's messages are not even looked at
    expect(bridge.log.filter((e) => e.direction === 'dropped').length).toBe(3);
  });

  it('refuses outgoing messages that break the contract', () => {
    const bridge = new ViewerBridge(window, window.location.origin);
    bridge.attach(frame);
    fromViewer({ type: 'viewer-ready' });
    bridge.call('notAFunction' as 'zoomToFit');
    expect(sent).toEqual([]);
  });

  it('replays the scene and settings when the viewer page reloads', () => {
    const bridge = new ViewerBridge(window, window.location.origin);
    bridge.attach(frame);
    fromViewer({ type: 'viewer-ready' });
    bridge.loadMesh({ mesh: meshToViewerMesh(tinyVolume) });
    bridge.call('setFieldMode', 1);
    bridge.call('zoomToFit');
    sent = [];
    bridge.reload();
    stubViewerWindow();
    fromViewer({ type: 'viewer-ready' });
    expect(sent.map((s) => s.message.name ?? s.message.type)).toEqual(['load-mesh', 'setFieldMode']);
  });
});

describe('viewer payloads', () => {
  it('turns results JSON into typed arrays (dense and sparse fields)', () => {
    const { mesh, fields } = resultsToViewer(completedResults);
    expect(mesh.positions).toHaveLength(15);
    expect(mesh.triangles).toHaveLength(18);
    expect(mesh.tetrahedra).toHaveLength(8);
    expect(Array.from(fields?.electric_field?.values ?? [])).toEqual([
      1, 0, 0, 0, 2, 0, 0, 0, 3, 4, 0, 0, 0, 0, 5,
    ]);
    const sparse = resultsToViewer({
      ...completedResults,
      efields: undefined,
      field_magnitudes: { e_magnitudes: { format: 'sparse', data: { '2': 7 }, size: 5 } },
    });
    expect(Array.from(sparse.fields?.electric_field?.values ?? [])).toEqual([0, 0, 7, 0, 0]);
  });

  it('flattens multi-body meshes with a body per triangle', () => {
    const body = { name: 'a', vertices: tinyVolume.vertices, faces: [[0, 1, 2]] };
    const m = meshToViewerMesh({ meshes: [body, { ...body, name: 'b' }] }, [true, false]);
    expect(Array.from(m.triangles)).toEqual([0, 1, 2, 5, 6, 7]);
    expect(Array.from(m.triangleBodies ?? [])).toEqual([0, 1]);
    expect(m.bodies).toEqual([
      { name: 'a', visible: true },
      { name: 'b', visible: false },
    ]);
  });

  it('picks whole CAD faces when face patches are known', () => {
    expect(facesOfPatch(2, [0, 1, 1, 2, 1])).toEqual([2, 3, 5]);
    expect(facesOfPatch(4, undefined)).toEqual([4]);
  });
});
