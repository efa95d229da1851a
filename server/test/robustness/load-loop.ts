import { jsonHeaders, type ServerProcess } from '../support/server-process.ts';

const FINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * A steady load on API processes while faults are injected: submits (keeping up to `maxOpen` of its jobs
 * unfinished) and status polls, spread over the servers and users. It records every acknowledged job, each
 * reply's status class, and every 5xx or dropped connection, split by whether the test had declared an
 * outage (a database or a server the test is restarting) at the time.
 */
export class LoadLoop {
  readonly acknowledged = new Set<string>();
  private readonly open = new Set<string>();
  readonly replies = new Map<string, number>();
  /** 500s, and other 5xx replies or dropped connections while no outage was declared: each is a finding. */
  readonly serverErrors: string[] = [];
  readonly duringOutage: string[] = [];
  private outageUntil = 0;
  private outageOn = false;
  private stopping = false;
  private loops: Promise<void>[] = [];
  private n = 0;

  constructor(
    private readonly servers: ServerProcess[],
    private readonly cookies: string[],
    private readonly makeJob: (n: number) => unknown,
    private readonly sleepSeconds: number,
    private readonly maxOpen = 6,
  ) {}

  /** Marks an outage the test causes (and `graceMs` after it ends) so its failed requests are not findings. */
  outage(on: boolean, graceMs = 0): void {
    this.outageOn = on;
    if (!on) this.outageUntil = Date.now() + graceMs;
  }

  start(): void {
    this.loops = [this.submitLoop(), this.pollLoop(), this.pollLoop()];
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.loops);
  }

  summary(): string {
    const codes = [...this.replies.entries()].map(([k, v]) => `${k} ${v}`).join(', ');
    const outage = new Map<string, number>();
    for (const l of this.duringOutage) {
      const k = l.split(' ').slice(1, 3).join(' ');
      outage.set(k, (outage.get(k) ?? 0) + 1);
    }
    return `acknowledged submits ${this.acknowledged.size}; replies ${codes}; findings ${this.serverErrors.length}; during outages ${[...outage].map(([k, v]) => `${k} ×${v}`).join(', ')}`;
  }

  private pick<T>(xs: T[]): T {
    return xs[this.n++ % xs.length] as T;
  }

  /** A live server (a killed one is skipped until the test restarts it). */
  private server(): ServerProcess | null {
    const live = this.servers.filter((s) => s.running);
    return live.length ? this.pick(live) : null;
  }

  private record(what: string, status: number | string, detail: string): void {
    const key = typeof status === 'number' ? `${Math.floor(status / 100)}xx` : status;
    this.replies.set(key, (this.replies.get(key) ?? 0) + 1);
    if (typeof status === 'number' && status < 500) return;
    const line = `${new Date().toISOString()} ${what}: ${status} ${detail.slice(0, 200)}`;
    // During an outage a request may fail, but only as a 503 that says so (or a cut connection when the
    // server itself is killed): a 500 is a finding at any time.
    const excused = (this.outageOn || Date.now() < this.outageUntil) && status !== 500;
    (excused ? this.duringOutage : this.serverErrors).push(line);
  }

  private async request(what: string, url: string, init: RequestInit): Promise<Response | null> {
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
      if (res.status >= 500) this.record(what, res.status, await res.clone().text());
      else this.record(what, res.status, '');
      return res;
    } catch (err) {
      this.record(what, 'network error', String((err as Error).cause ?? err));
      return null;
    }
  }

  private async submitLoop(): Promise<void> {
    let k = 0;
    while (!this.stopping) {
      const s = this.server();
      if (s && this.open.size < this.maxOpen) {
        const cookie = this.cookies[k % this.cookies.length] as string;
        const res = await this.request('submit', `${s.base}/api/fea/submit`, {
          method: 'POST',
          headers: { ...jsonHeaders(cookie), 'x-test-sleep-seconds': String(this.sleepSeconds) },
          body: JSON.stringify(this.makeJob(k++)),
        });
        if (res?.status === 200) {
          const id = ((await res.json()) as { job_id: string }).job_id;
          this.acknowledged.add(id);
          this.open.add(id);
        }
      }
      await sleep(300);
    }
  }

  private async pollLoop(): Promise<void> {
    while (!this.stopping) {
      const s = this.server();
      const ids = [...this.open];
      if (s && ids.length) {
        const id = this.pick(ids);
        // Any user's cookie: the job's owner is found by trying them (others get 404, which is also load).
        for (const cookie of this.cookies) {
          const res = await this.request('status', `${s.base}/api/fea/status/${id}`, {
            headers: { cookie, 'accept-encoding': 'gzip' },
          });
          if (res?.status !== 200) continue;
          const body = (await res.json()) as { status: string };
          if (FINAL.has(body.status)) this.open.delete(id);
          break;
        }
      }
      await sleep(150);
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
