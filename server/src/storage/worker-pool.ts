import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** The worker's tasks (storage-worker.mjs); each takes plain data and returns plain data or buffers. */
export type StorageTask = 'seal' | 'open' | 'statusReply' | 'summary';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  idleTimer: NodeJS.Timeout | null;
}

/** An idle thread ends after this long (its heap may hold a large parsed results file's garbage). */
const IDLE_MS = 30_000;
const WORKER_URL = new URL('./storage-worker.mjs', import.meta.url);

/**
 * Threads that run storage-worker.mjs: large stored objects are sealed, opened, parsed and serialised
 * there, off the event loop (issue 37). Started on first use, up to `size`; a task goes to an idle thread,
 * else a new one, else the least busy. Idle threads do not keep the process alive, and end after 30 s.
 * A thread that dies (out of memory) fails its tasks with an error; the next task starts a new one.
 */
export class StorageWorkerPool {
  private readonly threads: Thread[] = [];
  private nextId = 1;

  constructor(private readonly size: number) {}

  /** Tasks running or queued (a test's and the debug output's view). */
  get busy(): number {
    return this.threads.reduce((n, t) => n + t.pending.size, 0);
  }

  run<T>(task: StorageTask, args: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<T> {
    const thread = this.pick();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      thread.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      if (thread.idleTimer) {
        clearTimeout(thread.idleTimer);
        thread.idleTimer = null;
      }
      thread.worker.ref();
      thread.worker.postMessage({ id, task, args }, transfer);
    });
  }

  private pick(): Thread {
    const idle = this.threads.find((t) => t.pending.size === 0);
    if (idle) return idle;
    if (this.threads.length < this.size) return this.start();
    return this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  private start(): Thread {
    const worker = new Worker(WORKER_URL);
    const thread: Thread = { worker, pending: new Map(), idleTimer: null };
    worker.unref();
    worker.on('message', (msg: { id: number; value?: unknown; error?: string }) => {
      const p = thread.pending.get(msg.id);
      if (!p) return;
      thread.pending.delete(msg.id);
      if (msg.error !== undefined) p.reject(new Error(msg.error));
      else p.resolve(msg.value);
      if (thread.pending.size === 0) this.idle(thread);
    });
    const fail = (err: Error) => {
      this.drop(thread);
      for (const p of thread.pending.values()) p.reject(err);
      thread.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the storage worker thread exited (code ${code})`)));
    this.threads.push(thread);
    return thread;
  }

  private idle(thread: Thread): void {
    thread.worker.unref();
    thread.idleTimer = setTimeout(() => {
      this.drop(thread);
      void thread.worker.terminate();
    }, IDLE_MS);
    thread.idleTimer.unref();
  }

  private drop(thread: Thread): void {
    if (thread.idleTimer) clearTimeout(thread.idleTimer);
    const i = this.threads.indexOf(thread);
    if (i >= 0) this.threads.splice(i, 1);
  }
}

/** One pool per process, shared by every store (tests build many apps in one process). */
export const storageWorkers = new StorageWorkerPool(Math.max(2, availableParallelism()));

/** Buffers the worker sent back arrive as Uint8Array: a Buffer view of the same memory. */
export function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The ArrayBuffer to transfer with `bytes` when the caller gives its buffer away and it owns its memory. */
export function transferable(bytes: Uint8Array): ArrayBuffer[] {
  return bytes.byteOffset === 0 &&
    bytes.buffer.byteLength === bytes.byteLength &&
    bytes.buffer instanceof ArrayBuffer
    ? [bytes.buffer]
    : [];
}
