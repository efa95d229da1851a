// The benchmark page: the parent of the real viewer (same origin), as the environment is. It loads the
// 1M-tetrahedron result as results.bin, measures the viewer, then parses the same result as JSON (the peer).
import { decodeResultsBinary } from '../../web/src/results-format/results-binary.ts';
import { viewerPayloadFromResultsJson } from '../../web/src/results-format/results-json.ts';
import { loadMeshMessage, payloadTransferables } from '../../web/src/results-format/viewer-payload.ts';

interface Stats {
  loadToFirstFrameMs: number;
  fieldSwitchMs: number;
  frameChangeMs: number;
  sliceWallMs: number;
  sliceMainMs: number;
  sliceWorkerMs: number;
  sliceReceivedMs: number;
  lastFrameWaitMs: number;
  renders: number;
  lastRenderMs: number;
  busy: number;
  loaded: boolean;
  surfaceTriangles: number;
  sliceTriangles: number;
}

const log = document.getElementById('log') as HTMLPreElement;
const iframe = document.getElementById('viewer') as HTMLIFrameElement;
const say = (line: string) => {
  log.textContent += `${line}\n`;
};
const viewerWindow = () => iframe.contentWindow as Window & { fieldlineViewer?: { stats: () => Stats } };
const stats = () => viewerWindow().fieldlineViewer!.stats();
const call = (name: string, ...args: unknown[]) =>
  viewerWindow().postMessage({ type: 'call-function', name, args }, window.location.origin);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function until(test: () => boolean, timeoutMs = 120_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!test()) {
    if (performance.now() > end) throw new Error('benchmark step timed out');
    await sleep(5);
  }
}

/** Waits for the next render after `action`, then returns the stat it updated. */
async function measure(action: () => void, read: (s: Stats) => number): Promise<number> {
  const before = stats().renders;
  action();
  await until(() => stats().renders > before && stats().busy === 0);
  await sleep(30);
  return read(stats());
}

async function run(): Promise<Record<string, number | string>> {
  await new Promise<void>((resolve) => {
    const ready = (e: MessageEvent) => {
      if (e.origin === window.location.origin && e.data?.type === 'viewer-ready') resolve();
    };
    window.addEventListener('message', ready);
    viewerWindow().postMessage({ type: 'parent-hello' }, window.location.origin);
  });
  const out: Record<string, number | string> = {};
  let t = performance.now();
  const buffer = await (await fetch('/data/result.bin')).arrayBuffer();
  out.fetchBinMs = performance.now() - t;
  t = performance.now();
  const payload = decodeResultsBinary(buffer);
  out.decodeBinMs = performance.now() - t;
  out.tetrahedra = (payload.mesh.tetrahedra?.length ?? 0) / 4;
  out.frames = payload.animation?.frames.length ?? 0;

  // Load → first coloured frame (wall time in this page: message transfer + viewer handler + render).
  const t0 = performance.now();
  viewerWindow().postMessage(loadMeshMessage(payload), window.location.origin, payloadTransferables(payload));
  await until(() => {
    const s = viewerWindow().fieldlineViewer?.stats();
    return !!s && s.loaded && s.loadToFirstFrameMs > 0;
  });
  out.firstColouredFrameWallMs = performance.now() - t0;
  out.firstColouredFrameViewerMs = stats().loadToFirstFrameMs;
  await until(() => stats().busy === 0);
  out.topologyReadyWallMs = performance.now() - t0;
  out.surfaceTriangles = stats().surfaceTriangles;
  say(`loaded: ${JSON.stringify(out)}`);

  // Field-mode switches (magnitude modes: the colour attribute swap alone; vector modes add arrows).
  const switches: number[] = [];
  const vectorSwitches: number[] = [];
  for (const mode of [2, 3, 2, 3, 2, 3])
    switches.push(
      await measure(
        () => call('setFieldMode', mode),
        (s) => s.fieldSwitchMs,
      ),
    );
  for (const mode of [0, 1, 0, 1])
    vectorSwitches.push(
      await measure(
        () => call('setFieldMode', mode),
        (s) => s.fieldSwitchMs,
      ),
    );
  out.fieldSwitchMagnitudeMs = median(switches);
  out.fieldSwitchWithArrowsMs = median(vectorSwitches);

  // Animation frame changes (field attribute update + arrows in mode 1, then magnitude only in mode 3).
  const frames: number[] = [];
  for (let k = 1; k <= 6; k++)
    frames.push(
      await measure(
        () => call('setFrame', k),
        (s) => s.frameChangeMs,
      ),
    );
  out.frameChangeWithArrowsMs = median(frames);
  await measure(
    () => call('setFieldMode', 3),
    (s) => s.fieldSwitchMs,
  );
  const plainFrames: number[] = [];
  for (let k = 7; k <= 11; k++)
    plainFrames.push(
      await measure(
        () => call('setFrame', k),
        (s) => s.frameChangeMs,
      ),
    );
  out.frameChangeMs = median(plainFrames);

  // Slice updates over the million tetrahedra (worker cut + transfer + cap geometry + render).
  await measure(
    () => call('setViewerMode', 'section'),
    (s) => s.sliceWallMs,
  );
  const slices: number[] = [];
  const sliceMain: number[] = [];
  const sliceWorker: number[] = [];
  const sliceReceived: number[] = [];
  const frameWait: number[] = [];
  for (const offset of [-0.6, -0.3, 0.1, 0.35, 0.7, -0.1]) {
    const before = stats().sliceWallMs;
    call('setSectionOffset', offset);
    await until(() => stats().sliceWallMs !== before && stats().busy === 0);
    await sleep(30);
    slices.push(stats().sliceWallMs);
    sliceMain.push(stats().sliceMainMs);
    sliceWorker.push(stats().sliceWorkerMs);
    sliceReceived.push(stats().sliceReceivedMs);
    frameWait.push(stats().lastFrameWaitMs);
  }
  out.sliceUpdateWallMs = median(slices);
  out.sliceUpdateMainThreadMs = median(sliceMain);
  out.sliceWorkerMs = median(sliceWorker);
  out.sliceResultInPageMs = median(sliceReceived);
  out.sliceFrameWaitMs = median(frameWait);
  out.sliceTriangles = stats().sliceTriangles;
  say(`interactions: ${JSON.stringify(out)}`);

  // The peer: the same result as JSON text (the spec's results format), parsed and converted.
  t = performance.now();
  const text = await (await fetch('/data/result.json')).text();
  out.fetchJsonMs = performance.now() - t;
  t = performance.now();
  const parsed = JSON.parse(text);
  const fromJson = viewerPayloadFromResultsJson(parsed);
  out.parseJsonMs = performance.now() - t;
  out.jsonTetrahedra = (fromJson.mesh.tetrahedra?.length ?? 0) / 4;
  out.jsonOverBinaryDecode = (out.parseJsonMs as number) / Math.max(0.01, out.decodeBinMs as number);
  return out;
}

run()
  .then((result) => {
    say(`done: ${JSON.stringify(result)}`);
    Object.assign(window, { benchResult: result });
  })
  .catch((err: Error) => {
    say(`failed: ${err.message}`);
    Object.assign(window, { benchResult: { error: err.message } });
  });
