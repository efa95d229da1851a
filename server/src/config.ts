import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';

/** Repository root: server/src/config.ts → ../.. */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

export interface AppConfig {
  host: string;
  port: number;
  /** The origin browsers use to reach the app; CSRF checks compare against it. */
  publicOrigin: string;
  dataDir: string;
  /** `sqlite:<file>` or `postgres://…` */
  databaseUrl: string;
  redisUrl: string | null;
  webDistDir: string;
  enginePython: string;
  engineDir: string;
  jobSlots: number;
  jobTimeoutSeconds: number;
  jobMemoryLimitMb: number;
  secureCookies: boolean;
  logLevel: string;
  trustProxy: boolean;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
}

function path(raw: string): string {
  return isAbsolute(raw) ? raw : resolve(REPO_ROOT, raw);
}

/**
 * Reads the environment into a typed config. Every variable and its default is listed in
 * the README's configuration table; keep the two in step.
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const port = int(env, 'PORT', 8080);
  const dataDir = path(env.DATA_DIR ?? 'data');
  const publicOrigin = (env.PUBLIC_ORIGIN ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    host: env.HOST ?? '127.0.0.1',
    port,
    publicOrigin,
    dataDir,
    databaseUrl: env.DATABASE_URL ?? `sqlite:${resolve(dataDir, 'fieldline.sqlite')}`,
    redisUrl: env.REDIS_URL || null,
    webDistDir: path(env.WEB_DIST_DIR ?? 'web/dist'),
    enginePython: path(env.ENGINE_PYTHON ?? '.venv/bin/python'),
    engineDir: path(env.ENGINE_DIR ?? 'engine'),
    jobSlots: int(env, 'JOB_SLOTS', Math.max(1, availableParallelism())),
    jobTimeoutSeconds: int(env, 'JOB_TIMEOUT_SECONDS', 3600),
    jobMemoryLimitMb: int(env, 'JOB_MEMORY_LIMIT_MB', 8192),
    secureCookies: bool(env, 'SECURE_COOKIES', publicOrigin.startsWith('https://')),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: bool(env, 'TRUST_PROXY', false),
  };
}
