import type { ViewerContext } from './context.ts';

/** The camera and the frame: fit, reset, fullscreen. */
export class CameraLayer {
  constructor(private readonly ctx: ViewerContext) {}

  zoomToFit(): void {
    this.ctx.view.zoomToFit();
  }

  resetView(): void {
    this.ctx.view.resetView();
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
