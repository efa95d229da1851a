/**
 * After a new release the content-hashed page chunks an open tab knows about are gone, and its next
 * lazy page fails with "Failed to fetch dynamically imported module" (React Router's bare error
 * screen). Reloading once fetches the new index.html and its chunks; a second failure in the same
 * tab is a real one and is thrown.
 */
const KEY = 'fieldline:chunk-reload';

export interface ReloadEnv {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  reload: () => void;
}

const browserEnv = (): ReloadEnv => ({
  storage: window.sessionStorage,
  reload: () => window.location.reload(),
});

export function reloadOnceOnFailedChunk<T>(
  load: () => Promise<T>,
  env: () => ReloadEnv = browserEnv,
): () => Promise<T> {
  return () =>
    load().then(
      (value) => {
        env().storage.removeItem(KEY);
        return value;
      },
      (error: unknown) => {
        const { storage, reload } = env();
        if (storage.getItem(KEY)) throw error;
        storage.setItem(KEY, '1');
        reload();
        return new Promise<T>(() => {}); // the page is going away
      },
    );
}
