import type { EnvironmentState } from '../state/environment-state.ts';
import { meshToViewerMesh } from '../viewer-bridge/to-viewer-payload.ts';
import type { WorkflowDeps } from './deps.ts';

/** Sends the loaded model (surface or volume mesh) to the viewer, honouring body visibility. */
export function showModel(state: EnvironmentState, viewer: WorkflowDeps['viewer']): void {
  if (!state.model) return;
  const visible = state.bodies.map((b) => b.visible);
  viewer.loadMesh({ mesh: meshToViewerMesh({ ...state.model.mesh, units: modelUnits(state) }, visible) });
}

export function modelUnits(state: EnvironmentState): string {
  return state.model?.mesh.units ?? 'm';
}
