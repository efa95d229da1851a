import type { ConvertedModel } from '../api/convert-step.ts';
import type { FeaApi } from '../api/fea-api.ts';
import type { EnvironmentStore } from '../state/environment-state.ts';
import type { ViewerBridge } from '../viewer-bridge/viewer-bridge.ts';

/** What the upload, meshing and run workflows need; tests pass fakes for the network edges. */
export interface WorkflowDeps {
  store: EnvironmentStore;
  api: FeaApi;
  viewer: Pick<ViewerBridge, 'loadMesh' | 'call'>;
  convert: (file: File) => Promise<ConvertedModel>;
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** guest handling: is someone signed in, and how to send them to log in (after saving the work) */
  auth: {
    isSignedIn: () => Promise<boolean>;
    sendToLogin: () => Promise<void>;
  };
}
