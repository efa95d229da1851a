import type { CameraState } from '@fieldline/contracts';

/**
 * Cameras that move together: a pane that reports a move (viewer-event camera) has every other pane put its
 * camera there (setCamera, which reports nothing back). A pane that joins later starts at the last position.
 */
export class CameraLink {
  last: CameraState | null = null;
  private readonly panes = new Map<string, (camera: CameraState) => void>();

  join(pane: string, follow: (camera: CameraState) => void): () => void {
    this.panes.set(pane, follow);
    return () => {
      if (this.panes.get(pane) === follow) this.panes.delete(pane);
    };
  }

  moved(from: string, camera: CameraState): void {
    this.last = camera;
    for (const [pane, follow] of this.panes) if (pane !== from) follow(camera);
  }
}
