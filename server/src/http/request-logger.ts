import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { usesCachedAuth } from '../sessions/session-plugin.ts';

type Bindings = Record<string, unknown>;
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type PinoLike = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * A request's logger that creates its pino child (with the request id) only when something is logged
 * at an enabled level. Fastify makes one child per request; at the default `warn` level almost no
 * request logs, and the child cost ~2 % of a small reply's CPU.
 */
class LazyRequestLogger {
  #child: PinoLike | undefined;
  constructor(
    private readonly parent: PinoLike,
    private readonly bindings: Bindings,
  ) {}
  private real(): PinoLike {
    this.#child ??= this.parent.child(this.bindings) as PinoLike;
    return this.#child;
  }
  private log(level: Level, args: unknown[]): void {
    if (!(this.#child ?? this.parent).isLevelEnabled(level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }
  get level(): string {
    return (this.#child ?? this.parent).level;
  }
  set level(level: string) {
    this.real().level = level;
  }
  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.parent).isLevelEnabled(level);
  }
  child(bindings: Bindings, options?: object): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.log('error', args);
  }
  warn(...args: unknown[]): void {
    this.log('warn', args);
  }
  info(...args: unknown[]): void {
    this.log('info', args);
  }
  debug(...args: unknown[]): void {
    this.log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.log('trace', args);
  }
  silent(): void {}
}

/** Fastify's `childLoggerFactory`: a lazy child unless the route sets its own level or serializers. */
export const lazyChildLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => {
  // Not pino (logging off: Fastify's null logger), or a route with its own level: the plain child.
  const pino = typeof (logger as Partial<PinoLike>).isLevelEnabled === 'function';
  if (!pino || options.level || options.serializers) return logger.child(bindings, options);
  return new LazyRequestLogger(logger as PinoLike, bindings) as unknown as FastifyBaseLogger;
};

/**
 * Fastify's request log lines, one per request instead of two: no "incoming request" line, and the
 * "request completed" line carries the request (method, url, remote address) as the first one did.
 * Successful replies of poll routes (`cachedAuth`: every open page asks every 2 s) are logged at
 * debug, so `LOG_LEVEL=info` records what users do rather than their pages' polls. Errors, refusals
 * and error-handler lines are unchanged (Fastify's LogController).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) return super.requestCompleted(error, request, reply);
    const level = reply.statusCode < 400 && usesCachedAuth(request) ? 'debug' : 'info';
    const log = reply.log as FastifyBaseLogger & { isLevelEnabled?(level: string): boolean };
    if (log.isLevelEnabled?.(level) === false) return;
    log[level]({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
