import { useRef, useSyncExternalStore } from 'react';

/** A minimal observable store: workflows (upload, meshing, run) read and update it outside React. */
export interface Store<T> {
  get(): T;
  set(update: Partial<T> | ((state: T) => Partial<T>)): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T extends object>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(update) {
      const patch = typeof update === 'function' ? update(state) : update;
      state = { ...state, ...patch };
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Subscribes a component to a slice of the store. The selection is recomputed only when the state
 * object (or the selector) changes, so selectors may build new objects without re-rendering forever.
 */
export function useStoreState<T extends object, S>(store: Store<T>, select: (state: T) => S): S {
  const cache = useRef<{ state: T; select: (state: T) => S; selected: S } | null>(null);
  const snapshot = () => {
    const state = store.get();
    const c = cache.current;
    if (c?.state !== state || c.select !== select) cache.current = { state, select, selected: select(state) };
    return (cache.current as { selected: S }).selected;
  };
  return useSyncExternalStore(store.subscribe, snapshot, snapshot);
}
