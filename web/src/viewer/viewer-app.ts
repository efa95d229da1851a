import * as THREE from 'three';
import { runCommand } from './layers/commands.ts';
import {
  type Emit,
  emptyStats,
  type Layers,
  type ViewerContext,
  type ViewerStats,
} from './layers/context.ts';
import type { Shown } from './layers/export-layer.ts';
import { buildLayers } from './layers/index.ts';
import type { Pick } from './layers/picking-layer.ts';
import type { ViewerCommand } from './messaging.ts';
import { createColorUniforms } from './scene/materials.ts';
import { View } from './scene/view.ts';
import { WorkerClient } from './worker/worker-client.ts';

export type { ViewerStats } from './layers/context.ts';

/**
 * The viewer page's composition root: the view, the shared context and the layers (each owns the state of
 * one feature, see layers/); each protocol message goes to its layer through the command table.
 */
export class ViewerApp {
  readonly view: View;
  readonly layers: Layers;
  readonly stats: ViewerStats = emptyStats();

  constructor(container: HTMLElement, emit: Emit) {
    const view = new View(container);
    view.renderer.domElement.classList.add('fl-gl');
    const root = new THREE.Group();
    const overlays = new THREE.Group();
    view.scene.add(root, overlays);
    this.view = view;
    const ctx: ViewerContext = {
      view,
      container,
      colors: createColorUniforms(),
      root,
      overlays,
      worker: new WorkerClient(),
      stats: this.stats,
      emit,
      layers: {} as Layers,
      serial: 0,
      syncEvents: false,
      setBusy: (delta) => {
        this.stats.busy += delta;
      },
      timeUntilRendered: (t0, done) => {
        const handlerMs = performance.now() - t0;
        view.requestRender(() => done(handlerMs + view.lastRenderMs));
      },
      element: (className) => {
        const el = document.createElement('div');
        el.className = className;
        container.appendChild(el);
        return el;
      },
    };
    this.layers = buildLayers(ctx);
    this.layers.picking.installPointer();
  }

  /** A validated message from the parent page (messaging.ts): load-mesh, or a function of the table. */
  handle(command: ViewerCommand): void {
    if (command.type === 'load-mesh') this.layers.model.load(command);
    else if (command.type === 'call-function') runCommand(this.layers, command.name, command.args);
  }

  clear(): void {
    this.layers.model.clear();
  }

  /** What is under a ray: the cut face (section mode) or the visible surface. */
  pick(ray: THREE.Ray): Pick | null {
    return this.layers.picking.pick(ray);
  }

  exportPng(): string {
    return this.layers.exporter.png();
  }

  /** What the viewer shows, for the browser tests and the benchmark (window.fieldlineViewer.shown). */
  shown(i = 0): Shown {
    return this.layers.exporter.shown(i);
  }

  get statsSnapshot(): ViewerStats {
    return {
      ...this.stats,
      renders: this.view.renders,
      lastRenderMs: this.view.lastRenderMs,
      lastFrameWaitMs: this.view.lastFrameWaitMs,
    };
  }
}
