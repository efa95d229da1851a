import { defaultAnalysisForm } from '../config/form-defaults.ts';
import { initialEnvironmentState } from '../state/environment-state.ts';
import type { WorkflowDeps } from './deps.ts';

/** Clear Data: model, mesh, results and the form's model-specific rows; the viewer is emptied. */
export function clearData(deps: Pick<WorkflowDeps, 'store' | 'viewer'>): void {
  const wasPicking = deps.store.get().pickTarget !== null;
  deps.store.set({ ...initialEnvironmentState(), form: defaultAnalysisForm() });
  deps.viewer.call('clearData');
  if (wasPicking) deps.viewer.call('setFacePicking', false);
}
