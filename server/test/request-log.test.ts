import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger, OneLinePerRequest } from '../src/http/request-logger.ts';

// LOG_LEVEL=info used to write two lines per request ("incoming request", "request completed"), and
// every open page polls its job every 2 s. Now: one line per request, at completion; a poll route's
// successful replies only at debug; failures as before.
async function appLogging(level: string) {
  const lines: Record<string, unknown>[] = [];
  const app = Fastify({
    logger: { level, stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    childLoggerFactory: lazyChildLogger,
    logController: new OneLinePerRequest(),
  });
  app.get('/api/thing', async () => ({ ok: true }));
  app.get('/api/poll', { config: { cachedAuth: true } }, async () => ({ status: 'running' }));
  app.get('/api/poll-missing', { config: { cachedAuth: true } }, async (_req, reply) =>
    reply.code(404).send({ error: 'Job not found' }),
  );
  app.get('/api/broken', async () => {
    throw new Error('boom');
  });
  await app.ready();
  return { app, lines };
}

describe('request log lines', () => {
  it('writes one line per request at info, with the request and the status', async () => {
    const { app, lines } = await appLogging('info');
    await app.inject({ method: 'GET', url: '/api/thing' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/api/thing' },
      res: { statusCode: 200 },
    });
    expect(typeof lines[0]?.responseTime).toBe('number');
    expect(typeof lines[0]?.reqId).toBe('string');
    await app.close();
  });

  it('logs successful polls only at debug, and a refused poll and a failure at info or error', async () => {
    const info = await appLogging('info');
    for (let i = 0; i < 5; i++) await info.app.inject({ method: 'GET', url: '/api/poll' });
    expect(info.lines).toHaveLength(0);
    await info.app.inject({ method: 'GET', url: '/api/poll-missing' });
    expect(info.lines.at(-1)).toMatchObject({ level: 30, res: { statusCode: 404 } });
    await info.app.inject({ method: 'GET', url: '/api/broken' });
    expect(
      info.lines.some((l) => l.level === 50 && (l.err as { message?: string })?.message === 'boom'),
    ).toBe(true);
    await info.app.close();

    const debug = await appLogging('debug');
    await debug.app.inject({ method: 'GET', url: '/api/poll' });
    expect(debug.lines).toEqual([
      expect.objectContaining({
        level: 20,
        msg: 'request completed',
        req: expect.objectContaining({ url: '/api/poll' }),
      }),
    ]);
    await debug.app.close();
  });
});
