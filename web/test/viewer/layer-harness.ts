import * as THREE from 'three';
import { vi } from 'vitest';
import {
  emptyStats,
  type Layers,
  type ViewerContext,
  type ViewerEventOut,
} from '../../src/viewer/layers/context.ts';
import { createColorUniforms } from '../../src/viewer/scene/materials.ts';
import type { View } from '../../src/viewer/scene/view.ts';
import type { WorkerClient } from '../../src/viewer/worker/worker-client.ts';

/**
 * A viewer context without WebGL or a worker: the view records render requests, the worker records jobs and
 * never answers. Layers are added to `ctx.layers` by the test (one alone with stubs, or buildLayers).
 */
export function fakeContext() {
  const container = document.createElement('div');
  const jobs: { kind: string; job: unknown }[] = [];
  const events: ViewerEventOut[] = [];
  const syncs: { currentFrame: number; totalFrames: number; playing: boolean }[] = [];
  const view = {
    camera: new THREE.PerspectiveCamera(),
    // the orbit controls' events and target: the camera layer listens to changes (linked panes)
    controls: Object.assign(new THREE.EventDispatcher<{ change: object }>(), {
      enableZoom: true,
      target: new THREE.Vector3(),
      update(this: THREE.EventDispatcher<{ change: object }>) {
        this.dispatchEvent({ type: 'change' });
      },
    }),
    renders: 0,
    lastRenderMs: 0,
    lastFrameWaitMs: 0,
    fitPoints: null as Float32Array | null,
    requestRender: vi.fn((after?: () => void) => after?.()),
    setBounds: vi.fn(),
    resetView: vi.fn(),
    zoomToFit: vi.fn(),
  };
  view.camera.position.set(0, 0, 10);
  const worker = {
    run: vi.fn((kind: string, job: unknown) => {
      jobs.push({ kind, job });
      return new Promise(() => {});
    }),
  };
  const ctx: ViewerContext = {
    view: view as unknown as View,
    container,
    colors: createColorUniforms(),
    root: new THREE.Group(),
    overlays: new THREE.Group(),
    worker: worker as unknown as WorkerClient,
    stats: emptyStats(),
    emit: { event: (e) => events.push(e), sync: (s) => syncs.push(s) },
    layers: {} as Layers,
    serial: 0,
    syncEvents: false,
    setBusy: (delta) => {
      ctx.stats.busy += delta;
    },
    timeUntilRendered: (_t0, done) => done(0),
    element: (className) => {
      const el = document.createElement('div');
      el.className = className;
      container.appendChild(el);
      return el;
    },
  };
  return { ctx, view, jobs, events, syncs, container };
}
