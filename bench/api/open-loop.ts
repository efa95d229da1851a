// Open-loop load at a given rate with Poisson arrivals, for bench/api's "@ N/s" rows (issue 20).
//
// Why not autocannon's `overallRate`: it gives every connection a per-second quota and a 1 s timer,
// all created in the same tick, so at 100/s over 100 connections all 100 requests leave at the same
// instant once a second (and at 5,000/s over 200 connections each second starts with 200 at once and
// then runs closed-loop until the quota is spent). The p99 of such a row is the time to serve one
// whole burst, not the latency of polls from independent browsers. It also records each latency with
// an expected interval of ceil(1 / per-connection rate) = 1 ms, which adds a synthetic sample per
// millisecond of every reply.
//
// Here requests are scheduled at exponential gaps (a Poisson process, seeded: repeatable) — what 200
// environments each polling every 2 s from their own page-load moment look like — over a pool of
// keep-alive connections. A request whose moment comes while every connection is busy waits for one,
// and its latency counts from the scheduled moment (no coordinated omission). The client is plain
// sockets with a minimal response reader (status line, content-length, 304), so it stays cheap next
// to the server on a 2-core machine.
import { connect, type Socket } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface OpenLoopOptions {
  /** One or more `http://host:port` bases; connections are spread over them. */
  bases: string[];
  path: string;
  headers: Record<string, string>;
  /** Requests per second offered. */
  rate: number;
  durationS: number;
  connections: number;
  timeoutS?: number;
  seed?: number;
  /** Called with each answered request's scheduled moment (performance.now()) and latency (ms). */
  onSample?: (scheduled: number, latencyMs: number, status: number) => void;
  /** Stops offering requests early (the row ends once those in flight are answered). */
  stop?: AbortSignal;
}

export interface OpenLoopResult {
  offered: number;
  completed: number;
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  bytes: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** This client's own event-loop delay p99 and max (ms): its share of the latencies above. */
  clientDelayP99: number;
  clientDelayMax: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** mulberry32: a small seeded PRNG, so a row's arrival times repeat run to run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Connection {
  private socket!: Socket;
  private head: Buffer | null = null;
  private bodyLeft = 0;
  /** The scheduled moment of the request in flight, or NaN when idle. */
  scheduled = Number.NaN;
  ready = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly request: Buffer,
    private readonly done: (c: Connection, status: number, bytes: number) => void,
    private readonly failed: (c: Connection) => void,
  ) {
    this.open();
  }

  get idle(): boolean {
    return this.ready && Number.isNaN(this.scheduled);
  }

  send(scheduled: number): void {
    this.scheduled = scheduled;
    this.socket.write(this.request);
  }

  close(): void {
    this.socket.destroy();
  }

  /** After an error or a timeout: a new socket (the request in flight is counted by the caller). */
  reopen(): void {
    this.socket.removeAllListeners();
    this.socket.destroy();
    this.ready = false;
    this.scheduled = Number.NaN;
    this.head = null;
    this.bodyLeft = 0;
    this.open();
  }

  private open(): void {
    this.socket = connect(this.port, this.host, () => {
      this.ready = true;
      this.done(this, 0, 0); // announce: idle
    });
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', () => this.failed(this));
    this.socket.on('close', () => {
      if (this.ready) this.failed(this);
    });
  }

  private read(chunk: Buffer): void {
    if (this.bodyLeft > 0) {
      this.bodyLeft -= chunk.length;
      if (this.bodyLeft <= 0) this.finish(this.status, this.length);
      return;
    }
    const head = this.head ? Buffer.concat([this.head, chunk]) : chunk;
    const end = head.indexOf(HEADER_END);
    if (end < 0) {
      this.head = head;
      return;
    }
    this.head = null;
    const text = head.toString('latin1', 0, end);
    const status = Number(text.slice(9, 12));
    const m = /\r\ncontent-length: *(\d+)/i.exec(text);
    const length = status === 304 || status === 204 ? 0 : Number(m?.[1] ?? Number.NaN);
    if (Number.isNaN(length))
      throw new Error(`open-loop: a reply without content-length (${text.slice(0, 40)})`);
    const have = head.length - end - HEADER_END.length;
    this.status = status;
    this.length = end + HEADER_END.length + length; // bytes on the wire, as autocannon counts them
    this.bodyLeft = length - have;
    if (this.bodyLeft <= 0) this.finish(status, this.length);
  }

  private status = 0;
  private length = 0;

  private finish(status: number, bytes: number): void {
    this.bodyLeft = 0;
    this.done(this, status, bytes);
  }
}

export async function openLoop(o: OpenLoopOptions): Promise<OpenLoopResult> {
  const timeoutMs = (o.timeoutS ?? 10) * 1000;
  const next = random(o.seed ?? 20);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let bytes = 0;
  let errors = 0;
  let timeouts = 0;
  const waiting: number[] = []; // scheduled moments with no idle connection yet
  const idle: Connection[] = [];
  let outstanding = 0;
  let stopped = false;

  const onDone = (c: Connection, status: number, n: number) => {
    if (status !== 0) {
      const latency = performance.now() - c.scheduled;
      latencies.push(latency);
      o.onSample?.(c.scheduled, latency, status);
      statuses[status] = (statuses[status] ?? 0) + 1;
      bytes += n;
      outstanding -= 1;
      c.scheduled = Number.NaN;
    }
    const queued = waiting.shift();
    if (queued !== undefined) c.send(queued);
    else idle.push(c);
  };
  const onFailed = (c: Connection) => {
    if (!Number.isNaN(c.scheduled)) {
      errors += 1;
      outstanding -= 1;
    }
    const i = idle.indexOf(c);
    if (i >= 0) idle.splice(i, 1);
    if (!stopped) c.reopen();
  };

  const conns: Connection[] = [];
  for (let i = 0; i < o.connections; i++) {
    const base = new URL(o.bases[i % o.bases.length] ?? '');
    const lines = [`GET ${o.path} HTTP/1.1`, `host: ${base.host}`, 'connection: keep-alive'];
    for (const [k, v] of Object.entries(o.headers)) lines.push(`${k}: ${v}`);
    const request = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
    conns.push(new Connection(base.hostname, Number(base.port), request, onDone, onFailed));
  }
  const connectBy = performance.now() + 10_000;
  while (idle.length < o.connections && performance.now() < connectBy)
    await new Promise((r) => setTimeout(r, 10));

  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const start = performance.now();
  let end = start + o.durationS * 1000;
  o.stop?.addEventListener('abort', () => {
    end = Math.min(end, performance.now());
  });
  let at = start;
  let offered = 0;
  const dispatch = (scheduled: number) => {
    offered += 1;
    outstanding += 1;
    const c = idle.pop();
    if (c) c.send(scheduled);
    else waiting.push(scheduled);
  };
  const timeoutCheck = setInterval(() => {
    const now = performance.now();
    for (const c of conns)
      if (!Number.isNaN(c.scheduled) && now - c.scheduled > timeoutMs) {
        timeouts += 1;
        outstanding -= 1;
        c.scheduled = Number.NaN;
        c.reopen();
      }
    while (waiting.length > 0 && now - (waiting[0] ?? now) > timeoutMs) {
      waiting.shift();
      timeouts += 1;
      outstanding -= 1;
    }
  }, 100);

  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (at <= now && at < end) {
        dispatch(at);
        at += (-Math.log(1 - next()) / o.rate) * 1000;
      }
      if (at >= end || now >= end) resolve();
      else setTimeout(tick, Math.max(0, at - performance.now() - 0.5));
    };
    at += (-Math.log(1 - next()) / o.rate) * 1000;
    tick();
  });
  const drainBy = performance.now() + timeoutMs + 500;
  while (outstanding > 0 && performance.now() < drainBy) await new Promise((r) => setTimeout(r, 10));
  const elapsed = (performance.now() - start) / 1000;
  delay.disable();
  clearInterval(timeoutCheck);
  stopped = true;
  for (const c of conns) c.close();

  latencies.sort((a, b) => a - b);
  const q = (p: number) =>
    Number((latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0).toFixed(1));
  return {
    offered,
    completed: latencies.length,
    requestsPerSecond: Math.round(latencies.length / Math.max(elapsed, (end - start) / 1000)),
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
    max: Number((latencies.at(-1) ?? 0).toFixed(1)),
    bytes,
    statuses,
    errors,
    timeouts,
    clientDelayP99: Number((delay.percentile(99) / 1e6).toFixed(1)),
    clientDelayMax: Number((delay.max / 1e6).toFixed(1)),
  };
}
