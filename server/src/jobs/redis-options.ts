import type { RedisOptions } from 'ioredis';

/** ioredis options from a `redis://[user:pass@]host[:port][/db]` URL (rediss:// turns TLS on). */
export function redisOptions(url: string): RedisOptions {
  const u = new URL(url);
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new Error(`REDIS_URL must start with redis:// or rediss://, got "${url}"`);
  const db = u.pathname.replace(/^\//, '');
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    // BullMQ requires this for blocking connections; it also keeps commands waiting through reconnects.
    maxRetriesPerRequest: null,
  };
}

/** host:port for debug output, without credentials. */
export function redisLocation(url: string): string {
  const u = new URL(url);
  return `redis ${u.hostname}:${u.port || 6379}`;
}
