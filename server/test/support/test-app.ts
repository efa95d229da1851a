import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type BuildOptions, buildApp } from '../../src/app.ts';
import type { AppContext } from '../../src/app-context.ts';
import { loadConfig } from '../../src/config.ts';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A real app on a real database: a fresh SQLite file by default, or the PostgreSQL server named by
 * TEST_DATABASE_URL (scripts/test.sh starts one), in a schema of its own per test app.
 */
export interface TestAppOptions extends BuildOptions {
  /** Adds routes or hooks before the app is ready (e.g. a probe route that uses a guard). */
  configure?: (app: FastifyInstance, ctx: AppContext) => void;
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  // DATA_DIR and DATABASE_URL in `env` reuse another app's files and database (restart tests).
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'fieldline-test-'));
  const databaseUrl = env.DATABASE_URL ?? (await testDatabaseUrl(dataDir));
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    JOB_SLOTS: '2',
    ...env,
  });
  const { configure, ...buildOptions } = options;
  const { app, ctx } = await buildApp(config, { logger: process.env.TEST_LOGS === '1', ...buildOptions });
  configure?.(app, ctx);
  await app.ready();
  return {
    app,
    ctx,
    dataDir,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function testDatabaseUrl(dataDir: string): Promise<string> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (!pgUrl) return `sqlite:${join(dataDir, 'test.sqlite')}`;
  // A fresh database per test app keeps tests independent on one server.
  const pg = await import('pg');
  const name = `fl_test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.default.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Polls a job's status until it leaves queued/running. */
export async function waitForJob(app: FastifyInstance, jobId: string, cookie: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  const seen: string[] = [];
  while (Date.now() < deadline) {
    const res = await app.inject({ method: 'GET', url: `/api/fea/status/${jobId}`, headers: { cookie } });
    const body = res.json();
    if (seen[seen.length - 1] !== body.status) seen.push(body.status);
    if (!['queued', 'running'].includes(body.status)) return { body, seen };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${jobId} did not finish; states seen: ${seen.join(' → ')}`);
}

export function cookieFrom(res: { headers: Record<string, unknown> }): string {
  const raw = res.headers['set-cookie'];
  const first = Array.isArray(raw) ? raw[0] : raw;
  if (typeof first !== 'string') throw new Error('no set-cookie header');
  return first.split(';')[0] as string;
}
