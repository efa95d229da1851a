import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { boxMesh, facesOnPlane } from '../../server/test/support/box-mesh.ts';
import { decodeResultsBinary } from '../../web/src/results-format/index.ts';
import { registerApiUser } from '../support/api-user.ts';
import { compareToReference, decodePng, diffImages } from '../support/image-compare.ts';
import { serverAndBrowser } from '../support/stand.ts';
import { coaxModel } from '../support/synthetic-model.ts';
import {
  callViewer,
  clearMessages,
  loadModel,
  openViewer,
  settled,
  viewerMessages,
} from '../support/viewer-harness.ts';

// The 3D viewer in real Chromium with software WebGL (SwiftShader), driven through its window messages.

let page: Page;
let frame: Frame;

const stand = serverAndBrowser({ webgl: true });

async function freshViewer(): Promise<void> {
  await page?.close();
  page = await stand.browser.newPage({ viewport: { width: 800, height: 500 } });
  page.on('pageerror', (e) => console.error('viewer page error:', e.message));
  frame = await openViewer(page, stand.server.origin);
}

async function shot(): Promise<Buffer> {
  await settled(frame);
  return page.locator('#viewer').screenshot();
}

type SectionRange = { type: string; event: { kind: string; min: number; max: number; offset: number } };
async function lastSectionRange(): Promise<SectionRange['event'] | undefined> {
  await settled(frame);
  const messages = await viewerMessages<SectionRange>(page);
  return messages.filter((m) => m.type === 'viewer-event' && m.event.kind === 'section-range').at(-1)?.event;
}

function expectLikeReference(name: string, png: Buffer): void {
  const diff = compareToReference(name, png);
  console.log(
    `${name}: ${(diff.differing * 100).toFixed(2)} % of pixels differ, mean difference ${diff.meanDiff.toFixed(2)}`,
  );
  expect(diff.differing, `${name} differs from its reference (see e2e/out/viewer/)`).toBeLessThan(0.02);
  expect(diff.meanDiff).toBeLessThan(4);
}

describe('viewer page', () => {
  it('answers parent-hello with viewer-ready and ignores malformed calls', async () => {
    await freshViewer();
    await clearMessages(page);
    await page.evaluate(() => {
      const w = (document.getElementById('viewer') as HTMLIFrameElement).contentWindow;
      w?.postMessage({ type: 'parent-hello' }, window.location.origin);
      w?.postMessage({ type: 'call-function', name: 'setRenderMode', args: [9] }, window.location.origin);
      w?.postMessage({ type: 'call-function', name: 'notAFunction', args: [] }, window.location.origin);
    });
    await page.waitForFunction(() =>
      (window as unknown as { viewerMessages: { type: string }[] }).viewerMessages.some(
        (m) => m.type === 'viewer-ready',
      ),
    );
    const messages = await viewerMessages(page);
    expect(messages.map((m) => m.type)).toEqual(['viewer-ready']);
  });

  it('renders each render mode and field mode like the references', async () => {
    await freshViewer();
    await loadModel(page, coaxModel());
    const loaded = await settled(frame);
    expect(loaded.surfaceTriangles).toBeGreaterThan(0);
    const cases: [string, string, number][] = [
      ['render-0-shell-wireframe', 'setRenderMode', 0],
      ['render-1-wireframe', 'setRenderMode', 1],
      ['render-2-xray', 'setRenderMode', 2],
      ['render-3-solid', 'setRenderMode', 3],
      ['field-2-electric-magnitude', 'setFieldMode', 2],
      ['field-3-magnetic-magnitude', 'setFieldMode', 3],
      ['field-1-magnetic-field', 'setFieldMode', 1],
      ['field-0-electric-field', 'setFieldMode', 0],
    ];
    const images: Buffer[] = [];
    for (const [name, fn, arg] of cases) {
      await callViewer(page, fn, arg);
      const png = await shot();
      images.push(png);
      expectLikeReference(name, png);
    }
    // The modes really differ from each other.
    for (let i = 1; i < images.length; i++) {
      const d = diffImages(decodePng(images[i - 1]!), decodePng(images[i]!));
      expect(d.differing, `${cases[i]![0]} looks like ${cases[i - 1]![0]}`).toBeGreaterThan(0.002);
    }
  });

  it('section mode: the cut moves with the offset, reports its range, and respects the lock', async () => {
    await freshViewer();
    await loadModel(page, coaxModel());
    await settled(frame);
    await callViewer(page, 'setFieldMode', 2);
    await callViewer(page, 'setViewerMode', 'section');
    const atMiddle = await shot();
    const range = await lastSectionRange();
    expect(range).toMatchObject({ min: 0, offset: expect.closeTo(0.4, 5) });
    expect(range?.max).toBeCloseTo(0.8, 5);
    expect((await settled(frame)).sliceTriangles).toBeGreaterThan(0);

    await callViewer(page, 'setSectionAxis', 'x');
    const xRange = await lastSectionRange();
    expect(xRange?.min).toBeCloseTo(-1, 5);
    expect(xRange?.max).toBeCloseTo(1, 5);
    expect(xRange?.offset).toBeCloseTo(0, 5);
    const xCut = await shot();
    expectLikeReference('section-x-0', xCut);

    await callViewer(page, 'setSectionOffset', 0.5);
    expect((await lastSectionRange())?.offset).toBeCloseTo(0.5, 5);
    const moved = await shot();
    expectLikeReference('section-x-0.5', moved);
    expect(diffImages(decodePng(xCut), decodePng(moved)).differing).toBeGreaterThan(0.01);
    expect(diffImages(decodePng(atMiddle), decodePng(moved)).differing).toBeGreaterThan(0.01);

    await callViewer(page, 'setSectionLock', true);
    await callViewer(page, 'setSectionOffset', -0.5);
    await settled(frame);
    expect((await lastSectionRange())?.offset).toBeCloseTo(0.5, 5);

    // Wheel scrubs: the wheel moves the cut instead of zooming (when unlocked).
    await callViewer(page, 'setSectionLock', false);
    await callViewer(page, 'setWheelScrubs', true);
    await settled(frame);
    await page.mouse.move(400, 250);
    await page.mouse.wheel(0, 100);
    await settled(frame);
    expect((await lastSectionRange())?.offset).toBeCloseTo(0.48, 5);
  });

  it('draws streamlines, colour maps, log scale, hidden bodies and problem markers', async () => {
    await freshViewer();
    await loadModel(page, coaxModel());
    await settled(frame);
    await callViewer(page, 'setRenderMode', 2);
    await callViewer(page, 'setFieldMode', 3);
    await callViewer(page, 'setStreamlines', { enabled: true, seeds: 40, field: 'H' });
    const withLines = await settled(frame);
    expect(withLines.streamlineSegments).toBeGreaterThan(100);
    expectLikeReference('streamlines-h-xray', await shot());

    await callViewer(page, 'setStreamlines', { enabled: false });
    await callViewer(page, 'setRenderMode', 0);
    await callViewer(page, 'setFieldMode', 2);
    await callViewer(page, 'setColorMap', 'coolwarm');
    await callViewer(page, 'setLogScale', true);
    await callViewer(page, 'setColorRange', 1000, 2000);
    expect((await settled(frame)).streamlineSegments).toBe(0);
    expectLikeReference('coolwarm-log-fixed-range', await shot());

    await callViewer(page, 'setColorRange', null, null);
    await callViewer(page, 'setLogScale', false);
    await callViewer(page, 'setColorMap', 'turbo');
    await callViewer(page, 'setBodyVisibility', 1, false);
    expectLikeReference('turbo-outer-body-hidden', await shot());

    await callViewer(page, 'setBodyVisibility', 1, true);
    await callViewer(page, 'setColorMap', 'viridis');
    await page.evaluate(() => {
      const iframe = document.getElementById('viewer') as HTMLIFrameElement;
      iframe.contentWindow?.postMessage(
        {
          type: 'call-function',
          name: 'highlightProblems',
          args: [
            {
              vertices: new Uint32Array([0, 5, 9]),
              faces: new Uint32Array([200, 201, 202, 203, 204, 205]),
              messages: ['Self-intersection near (0.3, 0, 0)'],
            },
          ],
        },
        window.location.origin,
      );
    });
    const problems = await shot();
    expectLikeReference('problem-markers', problems);
    const text = await frame.locator('.fl-problems').textContent();
    expect(text).toContain('6 problem faces, 3 problem vertices');
    expect(text).toContain('Self-intersection near (0.3, 0, 0)');
  });

  it('scales and thins arrows, and shows a probe tooltip on hover', async () => {
    await freshViewer();
    await loadModel(page, coaxModel());
    const dense = await settled(frame);
    await callViewer(page, 'setVectorDensity', 0.05);
    const sparse = await settled(frame);
    expect(sparse.arrows).toBeLessThan(dense.arrows);
    expect(sparse.arrows).toBeGreaterThan(50);
    const small = await shot();
    await callViewer(page, 'setVectorScale', 4);
    const large = await shot();
    expect(diffImages(decodePng(small), decodePng(large)).differing).toBeGreaterThan(0.01);

    await callViewer(page, 'setFieldMode', 2);
    await settled(frame);
    await page.mouse.move(420, 380);
    await page.mouse.move(400, 390);
    await page.waitForTimeout(200);
    const tooltip = frame.locator('.fl-tooltip');
    await tooltip.waitFor({ state: 'visible' });
    const text = (await tooltip.textContent()) ?? '';
    expect(text).toMatch(/\|Electric field\| = [\d.]+ k?V\/m/);
    expect(text).toContain('mm');
  });

  it('animation advances frames, follows play/pause/next/previous/setFrame, and syncs the parent', async () => {
    await freshViewer();
    await loadModel(page, coaxModel(), { animation: true });
    await settled(frame);
    type Sync = { type: string; currentFrame: number; totalFrames: number; playing: boolean };
    const syncs = async () =>
      (await viewerMessages<Sync>(page)).filter((m) => m.type === 'viewer-animation-sync');
    expect((await syncs()).at(-1)).toEqual({
      type: 'viewer-animation-sync',
      currentFrame: 0,
      totalFrames: 12,
      playing: false,
    });
    const first = await shot();
    await callViewer(page, 'nextFrame');
    await callViewer(page, 'nextFrame');
    await callViewer(page, 'nextFrame');
    expect((await settled(frame)).frame).toBe(3);
    const third = await shot();
    expectLikeReference('animation-frame-3', third);
    expect(diffImages(decodePng(first), decodePng(third)).differing).toBeGreaterThan(0.01);
    await callViewer(page, 'previousFrame');
    await settled(frame);
    expect((await syncs()).at(-1)?.currentFrame).toBe(2);
    await callViewer(page, 'setFrame', 11);
    await callViewer(page, 'nextFrame');
    await settled(frame);
    expect((await syncs()).at(-1)?.currentFrame).toBe(0); // wraps around

    await clearMessages(page);
    await callViewer(page, 'setAnimationSpeed', 10);
    await callViewer(page, 'playAnimation');
    await page.waitForTimeout(1200);
    await callViewer(page, 'pauseAnimation');
    await page.waitForTimeout(100);
    const played = await syncs();
    expect(played[0]).toMatchObject({ playing: true, currentFrame: 0 });
    const framesSeen = played.filter((m) => m.playing).map((m) => m.currentFrame);
    console.log(`played at 10 fps for 1.2 s: frames ${framesSeen.join(', ')}`);
    expect(framesSeen.length).toBeGreaterThanOrEqual(6);
    for (let i = 1; i < framesSeen.length; i++) expect(framesSeen[i]).toBe((framesSeen[i - 1]! + 1) % 12);
    expect(played.at(-1)?.playing).toBe(false);
  });

  it('shows a real engine result fetched as results.bin, picks faces by id and probes values', async () => {
    // A real electrostatic job through the server and the engine.
    const mesh = boxMesh([4, 3, 1], [4, 3, 2]);
    const cookie = await registerApiUser(stand.server.origin);
    const submit = await fetch(`${stand.server.origin}/api/fea/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stand.server.origin, cookie },
      body: JSON.stringify({
        mesh_data: { ...mesh, units: 'mm' },
        config: {
          analysisType: 'em',
          dirichletFaceConditions: [
            { faces: facesOnPlane(mesh, 2, 0), voltage: 0 },
            { faces: facesOnPlane(mesh, 2, 1), voltage: 5 },
          ],
        },
      }),
    });
    const { job_id } = (await submit.json()) as { job_id: string };
    let status = 'queued';
    while (status === 'queued' || status === 'running') {
      await new Promise((r) => setTimeout(r, 200));
      status = (
        (await (
          await fetch(`${stand.server.origin}/api/fea/status/${job_id}`, { headers: { cookie } })
        ).json()) as {
          status: string;
        }
      ).status;
    }
    expect(status).toBe('completed');
    const bin = await fetch(`${stand.server.origin}/api/fea/results/${job_id}/binary`, {
      headers: { cookie },
    });
    expect(bin.status).toBe(200);
    const payload = decodeResultsBinary(await bin.arrayBuffer());
    expect(payload.mesh.units).toBe('mm');

    await freshViewer();
    await page.evaluate(
      ({ positions, triangles, tetrahedra, ev }) => {
        const iframe = document.getElementById('viewer') as HTMLIFrameElement;
        iframe.contentWindow?.postMessage(
          {
            type: 'load-mesh',
            mesh: {
              positions: new Float32Array(positions),
              triangles: new Uint32Array(triangles),
              tetrahedra: new Uint32Array(tetrahedra),
              units: 'mm',
            },
            fields: {
              electric_field: {
                label: 'Electric field',
                unit: 'V/m',
                kind: 'vector',
                values: new Float32Array(ev),
              },
            },
          },
          window.location.origin,
        );
      },
      {
        positions: Array.from(payload.mesh.positions),
        triangles: Array.from(payload.mesh.triangles),
        tetrahedra: Array.from(payload.mesh.tetrahedra ?? []),
        ev: Array.from(payload.fields?.electric_field?.values ?? []),
      },
    );
    const s = await settled(frame);
    expect(s.surfaceTriangles).toBe(payload.mesh.triangles.length / 3);
    expectLikeReference('engine-result', await shot());

    // Probe: a click on the model reports |E| = V/d = 5 V / 1 mm = 5000 V/m.
    await clearMessages(page);
    await page.mouse.click(400, 250);
    await settled(frame);
    type Ev = { type: string; event: { kind: string; value?: number; faceId?: number; point?: number[] } };
    const probe = (await viewerMessages<Ev>(page)).find((m) => m.event?.kind === 'probe');
    expect(probe?.event.value).toBeCloseTo(5000, 0);

    // Face picking: the face under the cursor, 1-based, on the plane its point lies in.
    await callViewer(page, 'setFacePicking', true);
    await settled(frame);
    await clearMessages(page);
    await page.mouse.click(400, 250);
    await settled(frame);
    const picked = (await viewerMessages<Ev>(page)).find((m) => m.event?.kind === 'face-picked');
    const faceId = picked?.event.faceId ?? 0;
    expect(faceId).toBeGreaterThanOrEqual(1);
    expect(faceId).toBeLessThanOrEqual(mesh.faces.length);
    const face = mesh.faces[faceId - 1]!;
    const point = picked!.event.point!;
    // The picked point lies in the picked face's plane (the face's vertices are coplanar with it).
    const corners = face.map((v) => mesh.vertices[v]!);
    const [a, b, c] = [corners[0]!, corners[1]!, corners[2]!];
    const n = [
      (b[1]! - a[1]!) * (c[2]! - a[2]!) - (b[2]! - a[2]!) * (c[1]! - a[1]!),
      (b[2]! - a[2]!) * (c[0]! - a[0]!) - (b[0]! - a[0]!) * (c[2]! - a[2]!),
      (b[0]! - a[0]!) * (c[1]! - a[1]!) - (b[1]! - a[1]!) * (c[0]! - a[0]!),
    ];
    const dist = n.reduce((sum, ni, k) => sum + ni * (point[k]! - a[k]!), 0) / Math.hypot(...n);
    expect(Math.abs(dist)).toBeLessThan(1e-4);

    // PNG export of the view (with its legend).
    await clearMessages(page);
    await callViewer(page, 'exportPng');
    await page.waitForFunction(() =>
      (window as unknown as { viewerMessages: { event?: { kind: string } }[] }).viewerMessages.some(
        (m) => m.event?.kind === 'png',
      ),
    );
    const png = (await viewerMessages<{ event: { kind: string; dataUrl: string } }>(page)).find(
      (m) => m.event?.kind === 'png',
    );
    expect(png?.event.dataUrl.startsWith('data:image/png;base64,')).toBe(true);
    const image = decodePng(Buffer.from(png!.event.dataUrl.split(',')[1]!, 'base64'));
    expect(image.width).toBe(800);
    expect(image.height).toBe(500);
  });
});
