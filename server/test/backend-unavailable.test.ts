import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { isBackendUnavailable } from '../src/http/errors.ts';
import { TcpProxy } from './support/tcp-proxy.ts';

/**
 * A database that goes away is a 503 ("briefly unavailable"), never a 500 (faults-bullmq found one: a
 * transaction cut by a PostgreSQL crash failed in its ROLLBACK with node-postgres's "Client has
 * encountered a connection error and is not queryable", which was not recognised).
 */
describe('backend-unavailable errors', () => {
  it("recognises node-postgres's connection errors and the socket codes, and nothing else", () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'Client has encountered a connection error and is not queryable',
      'Client was closed and is not queryable',
    ])
      expect(isBackendUnavailable(new Error(message)), message).toBe(true);
    for (const code of ['ECONNREFUSED', 'ECONNRESET', '57P01', '08006'])
      expect(isBackendUnavailable(Object.assign(new Error('x'), { code })), code).toBe(true);
    expect(isBackendUnavailable(new Error('boom'))).toBe(false);
    expect(isBackendUnavailable(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    expect(isBackendUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });

  const url = process.env.TEST_DATABASE_URL;
  describe.skipIf(!url)('against a real PostgreSQL cut mid-transaction', () => {
    const target = new URL(url ?? 'postgres://x@127.0.0.1:1/x');
    const proxy = new TcpProxy(target.hostname, Number(target.port));
    const handles: { close(): Promise<void> }[] = [];
    afterAll(async () => {
      await proxy.down();
      for (const h of handles) await h.close().catch(() => undefined);
    });

    it('the error a cut transaction throws is recognised', async () => {
      await proxy.up();
      const proxied = new URL(url as string);
      proxied.port = String(proxy.port);
      const handle = openDatabase(proxied.toString(), () => undefined);
      handles.push(handle);
      let thrown: unknown = null;
      try {
        await handle.db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
          await proxy.down(); // the database goes away between two statements of the transaction
          await sql`select 2`.execute(trx);
        });
      } catch (err) {
        thrown = err;
      }
      console.log(`cut transaction threw: ${(thrown as Error)?.message}`);
      expect(thrown).not.toBeNull();
      expect(isBackendUnavailable(thrown)).toBe(true);
    });
  });
});
