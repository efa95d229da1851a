import type { BrowserContextOptions, Frame, Page } from 'playwright-core';
import type { Stand } from './stand.ts';
import { settled } from './viewer-harness.ts';

/** Helpers for driving /environment in the e2e tests. */

export async function openEnvironment(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/#/environment`);
  await page.waitForSelector('[data-testid=status-chip]');
}

/**
 * A page in a new browser context (1366 × 900 unless `viewport` says otherwise) with /environment open,
 * signed up as a new user unless `signUp` is false.
 */
export async function environmentPage(
  stand: Stand,
  options: { viewport?: BrowserContextOptions['viewport']; acceptDownloads?: boolean; signUp?: boolean } = {},
): Promise<Page> {
  const context = await stand.browser.newContext({
    viewport: options.viewport ?? { width: 1366, height: 900 },
    ...(options.acceptDownloads === undefined ? {} : { acceptDownloads: options.acceptDownloads }),
  });
  const page = await context.newPage();
  await openEnvironment(page, stand.server.origin);
  if (options.signUp !== false) await signUp(page);
  return page;
}

export async function viewerFrame(page: Page): Promise<Frame> {
  for (let i = 0; i < 100; i++) {
    const frame = page.frames().find((f) => f.url().includes('/viewer.html'));
    if (frame) {
      await frame.waitForLoadState('load');
      return frame;
    }
    await page.waitForTimeout(100);
  }
  throw new Error('viewer iframe not found');
}

/** Records what the parent posts to the viewer (inside the viewer's window, as the viewer sees it). */
export async function recordViewerMessages(frame: Frame, keepPositions = false): Promise<void> {
  await frame.evaluate((keepPositions) => {
    const w = window as unknown as { __received: unknown[] };
    w.__received = [];
    window.addEventListener('message', (e) => {
      const d = e.data as {
        type?: string;
        name?: string;
        mesh?: { positions?: Float32Array; triangles?: Uint32Array };
        args?: unknown[];
        fields?: Record<
          string,
          { label: string; unit: string; kind: string; values: Float32Array; imag?: Float32Array }
        >;
        problemMarkers?: { faces?: Uint32Array; vertices?: Uint32Array };
      };
      // |E| per vertex (the peak amplitude of a phasor) from the named field electric_field.
      const ef = d.fields?.electric_field;
      let eMagnitude: number[] | undefined;
      if (ef) {
        const width = ef.kind === 'vector' ? 3 : 1;
        eMagnitude = [];
        for (let i = 0; i < ef.values.length / width; i++) {
          let sum = 0;
          for (let c = 0; c < width; c++)
            sum += ef.values[i * width + c]! ** 2 + (ef.imag?.[i * width + c] ?? 0) ** 2;
          eMagnitude.push(Math.sqrt(sum));
        }
      }
      w.__received.push({
        type: d.type,
        name: d.name,
        vertices: d.mesh?.positions ? d.mesh.positions.length / 3 : undefined,
        positions: keepPositions && d.mesh?.positions ? Array.from(d.mesh.positions) : undefined,
        args: d.args,
        eMagnitude,
        fields: d.fields
          ? Object.fromEntries(
              Object.entries(d.fields).map(([n, f]) => [n, { label: f.label, unit: f.unit, kind: f.kind }]),
            )
          : undefined,
        problemFaces: d.problemMarkers?.faces ? Array.from(d.problemMarkers.faces) : undefined,
        problemVertices: d.problemMarkers?.vertices ? Array.from(d.problemMarkers.vertices) : undefined,
      });
    });
  }, keepPositions);
}

export interface ReceivedMessage {
  type?: string;
  name?: string;
  vertices?: number;
  /** x, y, z per vertex (model units), when recordViewerMessages was asked to keep them */
  positions?: number[];
  /** |E| per vertex when the message carries the named field electric_field */
  eMagnitude?: number[];
  /** the named fields a load-mesh carries: label, unit, kind */
  fields?: Record<string, { label: string; unit: string; kind: string }>;
  args?: unknown[];
  problemFaces?: number[];
  problemVertices?: number[];
}

export function received(frame: Frame): Promise<ReceivedMessage[]> {
  return frame.evaluate(() => (window as unknown as { __received: ReceivedMessage[] }).__received);
}

/** A face click in the viewer, sent from the viewer's own window as the viewer does. */
export async function pickFace(frame: Frame, faceId: number): Promise<void> {
  await frame.evaluate((id) => {
    window.parent.postMessage(
      { type: 'viewer-event', event: { kind: 'face-picked', faceId: id, point: [0, 0, 0] } },
      window.location.origin,
    );
  }, faceId);
}

/**
 * Registers (and so signs in) through the real accounts API, from the page (same-origin, as the app
 * would). Returns the credentials.
 */
export async function signUp(page: Page): Promise<{ email: string; password: string }> {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const status = await page.evaluate(async (t) => {
    const res = await fetch('/api/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Grace Hopper',
        email: `grace.${t}@analytical-engines.com`,
        username: `grace_${t}`.slice(0, 20),
        password: 'correct horse battery staple',
        acceptedTerms: true,
      }),
    });
    return res.status;
  }, tag);
  if (status !== 200 && status !== 201) throw new Error(`registration failed with HTTP ${status}`);
  return { email: `grace.${tag}@analytical-engines.com`, password: 'correct horse battery staple' };
}

/**
 * Colours the results by the adaptive refinement's error indicator, chosen in the field list by its label as
 * a user would, and waits until the viewer shows that field.
 */
export async function showErrorIndicator(page: Page, frame: Frame): Promise<void> {
  await settled(frame);
  const label = await page.$$eval('[data-testid=field-mode] option', (els) =>
    els.map((e) => e.textContent ?? '').find((t) => t.startsWith('Error indicator')),
  );
  if (!label) throw new Error('the field list offers no "Error indicator"');
  await page.selectOption('[data-testid=field-mode]', { label });
  await frame.waitForFunction(
    () =>
      (
        window as unknown as { fieldlineViewer: { shown: () => { field: string | null } } }
      ).fieldlineViewer.shown().field === 'error_indicator',
    undefined,
    { timeout: 30_000 },
  );
}
