import type { Frame, Page } from 'playwright-core';
import type { SyntheticModel } from './synthetic-model.ts';

/**
 * Drives the real viewer page in an iframe of a same-origin page, as the environment does: waits for
 * viewer-ready, posts load-mesh / call-function, records what the viewer sends back.
 */
export async function openViewer(page: Page, origin: string): Promise<Frame> {
  await page.goto(`${origin}/`);
  await page.evaluate(() => {
    document.body.innerHTML = '';
    document.body.style.margin = '0';
    const w = window as unknown as { viewerMessages: unknown[] };
    w.viewerMessages = [];
    window.addEventListener('message', (e) => {
      if (e.origin === window.location.origin) w.viewerMessages.push(e.data);
    });
    const iframe = document.createElement('iframe');
    iframe.id = 'viewer';
    iframe.src = '/viewer.html';
    iframe.allow = 'fullscreen';
    iframe.style.cssText = 'border:0;width:100vw;height:100vh;display:block';
    document.body.appendChild(iframe);
  });
  await page.waitForFunction(() =>
    (window as unknown as { viewerMessages: { type: string }[] }).viewerMessages.some(
      (m) => m.type === 'viewer-ready',
    ),
  );
  const frame = page.frames().find((f) => f.url().endsWith('/viewer.html'));
  if (!frame) throw new Error('viewer iframe not found');
  return frame;
}

export async function viewerMessages<T = { type: string; [k: string]: unknown }>(page: Page): Promise<T[]> {
  return page.evaluate(() => (window as unknown as { viewerMessages: T[] }).viewerMessages);
}

export async function clearMessages(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { viewerMessages: unknown[] }).viewerMessages = [];
  });
}

export async function callViewer(page: Page, name: string, ...args: unknown[]): Promise<void> {
  await page.evaluate(
    ({ name, args }) => {
      const iframe = document.getElementById('viewer') as HTMLIFrameElement;
      iframe.contentWindow?.postMessage({ type: 'call-function', name, args }, window.location.origin);
    },
    { name, args },
  );
}

/** Posts load-mesh with the model as typed arrays (built inside the page from plain arrays). */
export async function loadModel(page: Page, model: SyntheticModel, options: { animation?: boolean } = {}) {
  await page.evaluate(
    ({ model, animation }) => {
      const f32 = (a: number[]) => new Float32Array(a);
      const u32 = (a: number[]) => new Uint32Array(a);
      const message = {
        type: 'load-mesh',
        mesh: {
          positions: f32(model.positions),
          triangles: u32(model.triangles),
          tetrahedra: u32(model.tetrahedra),
          tetrahedronBodies: u32(model.tetrahedronBodies),
          bodies: [
            { name: 'ptfe', visible: true },
            { name: 'air', visible: true },
          ],
          units: 'mm',
        },
        fields: {
          electric_field: {
            label: 'Electric field',
            unit: 'V/m',
            kind: 'vector',
            values: f32(model.eVectors),
          },
          magnetic_field: {
            label: 'Magnetic field',
            unit: 'A/m',
            kind: 'vector',
            values: f32(model.hVectors),
          },
        },
        ...(animation
          ? {
              animation: {
                axis: 'phase',
                frameValues: model.frameValues,
                frames: model.frames.map((fr) => ({
                  electric_field: f32(fr.eVectors),
                  magnetic_field: f32(fr.hVectors),
                })),
              },
            }
          : {}),
      };
      const iframe = document.getElementById('viewer') as HTMLIFrameElement;
      iframe.contentWindow?.postMessage(message, window.location.origin);
    },
    { model, animation: options.animation ?? false },
  );
}

export interface ViewerStatsSnapshot {
  loaded: boolean;
  busy: number;
  renders: number;
  frame: number;
  surfaceTriangles: number;
  sliceTriangles: number;
  arrows: number;
  streamlineSegments: number;
  [k: string]: number | boolean;
}

export async function stats(frame: Frame): Promise<ViewerStatsSnapshot> {
  return frame.evaluate(() =>
    (window as unknown as { fieldlineViewer: { stats: () => ViewerStatsSnapshot } }).fieldlineViewer.stats(),
  );
}

/** Waits until the viewer has finished its worker jobs and rendered the result. */
export async function settled(frame: Frame): Promise<ViewerStatsSnapshot> {
  const deadline = Date.now() + 30_000;
  let s = await stats(frame);
  while (Date.now() < deadline) {
    s = await stats(frame);
    if (s.loaded && s.busy === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  // Two animation frames: any requested render has happened.
  await frame.evaluate(
    () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
  );
  return stats(frame);
}
