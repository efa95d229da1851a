import { useRef, useSyncExternalStore } from 'react';

/** A minimal observable store: workflows (upload, meshing, run) read and update it outside React. */
export interface Store<T> {
  get(): T;
  set(update: Partial<T> | ((state: T) => Partial<T>)): void;
  subscribe(listener: () => void): () => void;
  /**
   * The state `action`'s updates would make, without keeping it: the updates go to a scratch copy, nobody is
   * told, and the store is as before when it returns (the Sweep action asks what a form input sets).
   */
  dryRun(action: () => void): T;
}

export function createStore<T extends object>(initial: T): Store<T> {
  let state = initial;
  let dry = false;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(update) {
      const patch = typeof update === 'function' ? update(state) : update;
      state = { ...state, ...patch };
      if (!dry) for (const l of listeners) l();
    },
    dryRun(action) {
      const saved = state;
      const wasDry = dry;
      dry = true;
      try {
        action();
        return state;
      } finally {
        state = saved;
        dry = wasDry;
      }
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
