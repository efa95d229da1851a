import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyServerOptions } from 'fastify';

/**
 * A route answered before Fastify: `prepare` looks the request up in memory only and returns the
 * function that writes the reply, or undefined to hand the request to Fastify (the full path, with
 * every hook). It must never write anything itself, and never answer what Fastify would answer
 * differently.
 */
export type FastRoute = (req: IncomingMessage) => ((res: ServerResponse) => void) | undefined;

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
  private readonly queue: [IncomingMessage, ServerResponse][] = [];
  private repliesThisTurn = 0;
  private turnEndScheduled = false;
  /** Requests handed to Fastify and not finished yet. */
  private routesInFlight = 0;
  private acceptedThisTurn = false;
  /** Replies the lane wrote (tests and benches read it). */
  served = 0;

  constructor(
    private readonly fallback: (req: IncomingMessage, res: ServerResponse) => void,
    private readonly repliesPerTurn = REPLIES_PER_TURN,
    private readonly repliesPerBusyTurn = Math.min(REPLIES_PER_BUSY_TURN, repliesPerTurn),
  ) {}

  add(route: FastRoute): void {
    this.routes.push(route);
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    const write = this.prepare(req);
    if (!write) this.route(req, res);
    else if (this.queue.length === 0 && this.repliesThisTurn < this.budget()) this.write(write, res);
    else {
      this.queue.push([req, res]);
      this.scheduleTurnEnd();
    }
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

  private prepare(req: IncomingMessage): ((res: ServerResponse) => void) | undefined {
    try {
      for (const route of this.routes) {
        const write = route(req);
        if (write) return write;
      }
    } catch {
      // A bug in a lane route must not take the process down: the route's full path answers instead.
    }
    return undefined;
  }

  private write(write: (res: ServerResponse) => void, res: ServerResponse): void {
    this.repliesThisTurn += 1;
    this.served += 1;
    this.scheduleTurnEnd();
    write(res);
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
    const batch = this.queue.splice(0, this.budget());
    this.acceptedThisTurn = false;
    for (const [req, res] of batch) {
      if (res.destroyed) continue; // the client went away while it waited
      const write = this.prepare(req);
      if (write) {
        this.served += 1;
        write(res);
      } else this.route(req, res);
    }
    // setImmediate from inside an immediate runs in the next turn, after that turn's I/O (and accept).
    if (this.queue.length > 0) this.scheduleTurnEnd();
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
