import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

/** The real server and Chromium a test file runs against, there once its `beforeAll` has run. */
export interface Stand {
  server: RunningServer;
  browser: Browser;
}

/**
 * Starts the real server (fresh data dir, `env` added to its environment) and Chromium (`webgl` for the
 * 3D viewer) before the file's tests and stops both after them: the lifecycle every e2e file repeated.
 * Call it at the top level of the file; a file's own setup goes in a `beforeAll` after it (hooks run in
 * the order they are registered, so the stand is up by then).
 */
export function serverAndBrowser(options: { env?: Record<string, string>; webgl?: boolean } = {}): Stand {
  const stand = {} as Stand;
  beforeAll(async () => {
    stand.server = await startServer(options.env);
    stand.browser = await launchBrowser({ webgl: options.webgl });
  });
  afterAll(async () => {
    await stand.browser?.close();
    await stand.server?.stop();
  });
  return stand;
}

/** The real server alone (tests that drive the API, not a browser), started and stopped the same way. */
export function serverOnly(env?: Record<string, string>): { server: RunningServer } {
  const stand = {} as { server: RunningServer };
  beforeAll(async () => {
    stand.server = await startServer(env);
  });
  afterAll(async () => {
    await stand.server?.stop();
  });
  return stand;
}
