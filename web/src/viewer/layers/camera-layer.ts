import type { CameraState } from '@fieldline/contracts';
import type { ViewerContext } from './context.ts';

type Vec3 = [number, number, number];

/**
 * The camera and the frame: fit, reset, fullscreen; and, for panes shown side by side, the camera put where
 * another pane's is (setCamera) and the user's moves reported (setSyncEvents) so the parent can link them.
 */
export class CameraLayer {
  /** true while setCamera moves the camera: a move the parent asked for is not reported back */
  private placing = false;
  private reportQueued = false;

  constructor(private readonly ctx: ViewerContext) {
    ctx.view.controls.addEventListener('change', () => this.moved());
  }

  zoomToFit(): void {
    this.ctx.view.zoomToFit();
  }

  resetView(): void {
    this.ctx.view.resetView();
  }

  setSyncEvents(on: boolean): void {
    this.ctx.syncEvents = on;
    if (on) {
      this.moved();
      this.ctx.layers.surface.reportLegend();
    }
  }

  setCamera(state: CameraState): void {
    const { camera, controls } = this.ctx.view;
    this.placing = true;
    try {
      camera.position.set(...state.position);
      camera.up.set(...state.up);
      controls.target.set(...state.target);
      camera.lookAt(controls.target);
      camera.updateProjectionMatrix();
      controls.update();
    } finally {
      this.placing = false;
    }
    this.ctx.view.requestRender();
  }

  /** Where the camera is now (model units). */
  state(): CameraState {
    const { camera, controls } = this.ctx.view;
    return {
      position: camera.position.toArray() as Vec3,
      target: controls.target.toArray() as Vec3,
      up: camera.up.toArray() as Vec3,
    };
  }

  /** A drag fires many changes per frame: one report per animation frame, with where the camera ended. */
  private moved(): void {
    if (this.placing || !this.ctx.syncEvents || this.reportQueued) return;
    this.reportQueued = true;
    requestAnimationFrame(() => {
      this.reportQueued = false;
      if (this.ctx.syncEvents) this.ctx.emit.event({ kind: 'camera', camera: this.state() });
    });
  }

  toggleFullscreen(): void {
    const run = document.fullscreenElement
      ? document.exitFullscreen()
      : document.documentElement.requestFullscreen();
    run.catch((err: Error) => {
      // Browsers allow fullscreen only from a user gesture in this frame; the parent can fullscreen the iframe.
      console.warn('viewer: fullscreen refused', err.message);
    });
  }
}
