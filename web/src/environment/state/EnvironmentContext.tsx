import { createContext, useContext } from 'react';
import type { ViewerBridge } from '../viewer-bridge/viewer-bridge.ts';
import type { WorkflowDeps } from '../workflows/deps.ts';
import type { EnvironmentState, EnvironmentStore } from './environment-state.ts';
import { useStoreState } from './store.ts';

/** Cancels in-flight polling (meshing or analysis). */
export interface JobControls {
  start(kind: 'meshing' | 'analysis'): AbortSignal;
  stop(kind: 'meshing' | 'analysis'): void;
}

export interface EnvironmentServices {
  store: EnvironmentStore;
  deps: WorkflowDeps;
  bridge: ViewerBridge;
  jobs: JobControls;
}

export const EnvironmentContext = createContext<EnvironmentServices | null>(null);

export function useServices(): EnvironmentServices {
  const services = useContext(EnvironmentContext);
  if (!services) throw new Error('useServices outside the environment page');
  return services;
}

export function useEnv<S>(select: (state: EnvironmentState) => S): S {
  return useStoreState(useServices().store, select);
}

export function createJobControls(): JobControls {
  const controllers = new Map<string, AbortController>();
  return {
    start(kind) {
      controllers.get(kind)?.abort();
      const c = new AbortController();
      controllers.set(kind, c);
      return c.signal;
    },
    stop(kind) {
      controllers.get(kind)?.abort();
      controllers.delete(kind);
    },
  };
}
