import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

/**
 * A reply the lane writes as it is. Routes build one per cached value (a job snapshot, a usage
 * record) and every request it answers shares it: a poll allocates no reply objects, closures or
 * header lists of ours (each scavenge of the young generation is a pause of the one event loop).
 */
export interface LaneReply {
  readonly statusCode: number;
  /** Flat [name, value, …] list, as `writeHead` takes it (precomputed: no per-request strings). */
  readonly headers: string[];
  readonly body?: Buffer;
}

/**
 * A route answered before Fastify: it looks the request up in memory only and returns the reply to
 * write, or undefined to hand the request to Fastify (the full path, with every hook). It must never
 * write anything itself, and never answer what Fastify would answer differently.
 */
export type FastRoute = (req: IncomingMessage) => LaneReply | undefined;

/** Replies the lane writes per event-loop turn before it defers the rest to the next turns. */
export const REPLIES_PER_TURN = 16;

/**
 * The budget while Fastify serves a request (a submit, a page load) or connections are arriving:
 * shorter turns, so each of that request's awaits and each accept waits for fewer polls.
 */
export const REPLIES_PER_BUSY_TURN = 4;

/**
 * The few hot requests every open page repeats (status polls), answered from memory without Fastify's
 * routing, hooks and reply objects — about half of a poll's CPU.
 *
 * The lane also keeps event-loop turns short when many connections poll at once. libuv accepts one
 * new connection per turn (since 1.45), and a turn runs the handlers of every socket that became
 * readable: with a thousand busy pollers a turn lasted a thousand replies, so a new connection (a
 * user's submit, a page load) waited in the kernel's accept queue for seconds. Past
 * REPLIES_PER_TURN in a turn, the lane queues its replies (in arrival order) and writes that many per
 * later turn; everything else (Fastify's routes) is served at once, ahead of the queued polls. While
 * Fastify serves something, or connections arrive, the budget is REPLIES_PER_BUSY_TURN: a submit's
 * every await (a database call, a file write) waits for the end of a turn, so shorter turns are
 * what lets it finish in milliseconds behind a thousand pollers.
 * A queued request is looked up again when its turn comes, so a logout in between is honoured.
 */
export class FastLane {
  private readonly routes: FastRoute[] = [];
  /** Queued requests, in order, from `queueHead` on (two arrays and an index: no tuple per request). */
  private readonly queuedReqs: IncomingMessage[] = [];
  private readonly queuedRess: ServerResponse[] = [];
  private queueHead = 0;
  private repliesThisTurn = 0;
  private turnEndScheduled = false;
  /** Requests handed to Fastify and not finished yet. */
  private routesInFlight = 0;
  private acceptedThisTurn = false;
  /** Replies the lane wrote (tests and benches read it). */
  served = 0;
  /** Logs each lane reply at debug level, as Fastify logs its requests (set by the app). */
  logger?: FastifyBaseLogger & { isLevelEnabled?(level: string): boolean };

  constructor(
    private readonly fallback: (req: IncomingMessage, res: ServerResponse) => void,
    private readonly repliesPerTurn = REPLIES_PER_TURN,
    private readonly repliesPerBusyTurn = Math.min(REPLIES_PER_BUSY_TURN, repliesPerTurn),
  ) {}

  add(route: FastRoute): void {
    this.routes.push(route);
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    const reply = this.prepare(req);
    if (!reply) this.route(req, res);
    else if (this.queued() === 0 && this.repliesThisTurn < this.budget()) {
      this.repliesThisTurn += 1;
      this.scheduleTurnEnd();
      this.write(req, res, reply);
    } else {
      this.queuedReqs.push(req);
      this.queuedRess.push(res);
      this.scheduleTurnEnd();
    }
  }

  private queued(): number {
    return this.queuedReqs.length - this.queueHead;
  }

  /** A new connection was accepted (the server's 'connection' event): this turn is a busy one. */
  connected(): void {
    this.acceptedThisTurn = true;
    this.scheduleTurnEnd();
  }

  private budget(): number {
    return this.routesInFlight > 0 || this.acceptedThisTurn ? this.repliesPerBusyTurn : this.repliesPerTurn;
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    this.routesInFlight += 1;
    // 'close' comes once per response: when it has been sent, or when its connection went away.
    res.once('close', this.routeDone);
    this.fallback(req, res);
  }

  private readonly routeDone = (): void => {
    this.routesInFlight -= 1;
  };

  private prepare(req: IncomingMessage): LaneReply | undefined {
    try {
      for (const route of this.routes) {
        const reply = route(req);
        if (reply) return reply;
      }
    } catch {
      // A bug in a lane route must not take the process down: the route's full path answers instead.
    }
    return undefined;
  }

  private write(req: IncomingMessage, res: ServerResponse, reply: LaneReply): void {
    this.served += 1;
    res.writeHead(reply.statusCode, reply.headers);
    res.end(reply.body);
    if (this.logger?.isLevelEnabled?.('debug'))
      this.logger.debug(
        { req: { method: req.method, url: req.url }, res: { statusCode: reply.statusCode } },
        'request completed (fast lane)',
      );
  }

  /** setImmediate runs after this turn's I/O callbacks: the turn's count resets, queued replies go out. */
  private scheduleTurnEnd(): void {
    if (this.turnEndScheduled) return;
    this.turnEndScheduled = true;
    setImmediate(this.turnEnd);
  }

  private readonly turnEnd = (): void => {
    this.turnEndScheduled = false;
    this.repliesThisTurn = 0;
    const end = Math.min(this.queuedReqs.length, this.queueHead + this.budget());
    this.acceptedThisTurn = false;
    while (this.queueHead < end) {
      const req = this.queuedReqs[this.queueHead] as IncomingMessage;
      const res = this.queuedRess[this.queueHead] as ServerResponse;
      this.queuedReqs[this.queueHead] = undefined as unknown as IncomingMessage; // let it be collected
      this.queuedRess[this.queueHead] = undefined as unknown as ServerResponse;
      this.queueHead += 1;
      if (res.destroyed) continue; // the client went away while it waited
      const reply = this.prepare(req);
      if (reply) this.write(req, res, reply);
      else this.route(req, res);
    }
    if (this.queued() === 0) {
      this.queuedReqs.length = 0;
      this.queuedRess.length = 0;
      this.queueHead = 0;
    } else if (this.queueHead >= 4096) {
      // A backlog that never empties: drop the written slots now and then (amortised).
      this.queuedReqs.splice(0, this.queueHead);
      this.queuedRess.splice(0, this.queueHead);
      this.queueHead = 0;
    }
    if (this.queued() > 0)
      // setImmediate from inside an immediate runs in the next turn, after that turn's I/O (and accept).
      this.scheduleTurnEnd();
  };
}

const lanes = new WeakMap<object, FastLane>();

/** The lane in front of a server made by `serverWithFastLane` (app.server). */
export function fastLaneOf(server: object): FastLane | undefined {
  return lanes.get(server);
}

/**
 * Fastify's `serverFactory`: the HTTP server Fastify would create (same timeouts), with a FastLane in
 * front of Fastify's handler (add routes to it with `fastLaneOf(app.server)`).
 */
export function serverWithFastLane(
  repliesPerTurn = REPLIES_PER_TURN,
): NonNullable<FastifyServerOptions['serverFactory']> {
  return (handler, options) => {
    const lane = new FastLane(handler, repliesPerTurn);
    const server: Server = http.createServer(options.http ?? {}, (req, res) => lane.handle(req, res));
    server.on('connection', () => lane.connected());
    // As Fastify sets them on the server it creates (its options are normalised by now; 0 = off).
    if (typeof options.keepAliveTimeout === 'number') server.keepAliveTimeout = options.keepAliveTimeout;
    if (typeof options.requestTimeout === 'number') server.requestTimeout = options.requestTimeout;
    if (typeof options.connectionTimeout === 'number') server.setTimeout(options.connectionTimeout);
    if (typeof options.maxRequestsPerSocket === 'number' && options.maxRequestsPerSocket > 0)
      server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    lanes.set(server, lane);
    return server;
  };
}
