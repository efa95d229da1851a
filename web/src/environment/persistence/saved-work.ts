import type { AnalysisForm } from '../config/analysis-form.ts';
import type { BodyState, EnvironmentState, LoadedModel } from '../state/environment-state.ts';

/** The model and configuration kept across the trip to the login page. */
export interface SavedWork {
  version: 1;
  savedAt: number;
  model: LoadedModel;
  bodies: BodyState[];
  form: AnalysisForm;
}

export interface WorkStore {
  save(work: SavedWork): Promise<void>;
  take(): Promise<SavedWork | null>;
}

const MAX_AGE_MS = 24 * 3600 * 1000;

export function snapshotWork(state: EnvironmentState, now = Date.now()): SavedWork | null {
  if (!state.model) return null;
  return { version: 1, savedAt: now, model: state.model, bodies: state.bodies, form: state.form };
}

export function isUsable(work: SavedWork | null, now = Date.now()): work is SavedWork {
  return !!work && work.version === 1 && now - work.savedAt < MAX_AGE_MS && !!work.model;
}

/** IndexedDB (meshes exceed sessionStorage's few megabytes); one record, taken once. */
export function indexedDbWorkStore(dbName = 'fieldline-environment'): WorkStore {
  const open = () =>
    new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(dbName, 1);
      req.onupgradeneeded = () => req.result.createObjectStore('work');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  const tx = async <T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const db = await open();
    try {
      return await new Promise<T>((resolve, reject) => {
        const req = fn(db.transaction('work', mode).objectStore('work'));
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    } finally {
      db.close();
    }
  };
  return {
    async save(work) {
      await tx('readwrite', (s) => s.put(work, 'pending'));
    },
    async take() {
      if (typeof indexedDB === 'undefined') return null;
      const work = (await tx('readonly', (s) => s.get('pending'))) as SavedWork | undefined;
      if (work) await tx('readwrite', (s) => s.delete('pending'));
      return isUsable(work ?? null) ? (work as SavedWork) : null;
    },
  };
}
