import { describe, expect, it, vi } from 'vitest';
import { reloadOnceOnFailedChunk } from '../src/stale-chunk.ts';

/** qa29: after a rebuild, an open tab's next lazy page showed "Failed to fetch dynamically imported module". */
function memoryEnv() {
  const store = new Map<string, string>();
  const reload = vi.fn();
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  };
  return { env: () => ({ storage, reload }), reload, store };
}

describe('a page chunk that fails to load', () => {
  it('reloads the page once, then throws the second failure', async () => {
    const { env, reload } = memoryEnv();
    const failing = reloadOnceOnFailedChunk(() => Promise.reject(new TypeError('Failed to fetch')), env);
    let settled = false;
    void failing().finally(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(reload).toHaveBeenCalledTimes(1);
    expect(settled).toBe(false); // nothing renders an error while the page reloads
    await expect(failing()).rejects.toThrow('Failed to fetch');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('a chunk that loads clears the mark, so a later release may reload again', async () => {
    const { env, reload, store } = memoryEnv();
    store.set('fieldline:chunk-reload', '1');
    await expect(reloadOnceOnFailedChunk(() => Promise.resolve('page'), env)()).resolves.toBe('page');
    expect(store.size).toBe(0);
    void reloadOnceOnFailedChunk(() => Promise.reject(new Error('gone')), env)();
    await new Promise((r) => setTimeout(r, 0));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
