import type { WorkerJobKind, WorkerJobs, WorkerRequest, WorkerResponse } from './worker-protocol.ts';

/** Promise-based calls into the viewer's worker. */
export class WorkerClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor() {
    this.worker = new Worker(new URL('./viewer-worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
      const call = this.pending.get(event.data.id);
      if (!call) return;
      this.pending.delete(event.data.id);
      if (event.data.ok) call.resolve(event.data.result);
      else call.reject(new Error(event.data.error));
    };
    this.worker.onerror = (event) => {
      for (const call of this.pending.values())
        call.reject(new Error(event.message || 'viewer worker failed'));
      this.pending.clear();
    };
  }

  run<K extends WorkerJobKind>(
    kind: K,
    job: WorkerJobs[K][0],
    transfer: Transferable[] = [],
  ): Promise<WorkerJobs[K][1]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, kind, job } satisfies WorkerRequest<K>, transfer);
    });
  }
}

/**
 * Runs at most one job of a kind at a time and, while one runs, keeps only the newest request: slider
 * scrubbing asks for many slices, the user only needs the last one.
 */
export class LatestOnly<J, R> {
  private running = false;
  private queued: J | null = null;

  constructor(
    private readonly execute: (job: J) => Promise<R>,
    private readonly onResult: (result: R, job: J) => void,
    private readonly onError: (error: Error) => void = () => {},
  ) {}

  request(job: J): void {
    if (this.running) {
      this.queued = job;
      return;
    }
    this.running = true;
    this.execute(job)
      .then((result) => this.onResult(result, job))
      .catch((err: Error) => this.onError(err))
      .finally(() => {
        this.running = false;
        const next = this.queued;
        this.queued = null;
        if (next !== null) this.request(next);
      });
  }

  get busy(): boolean {
    return this.running;
  }
}
