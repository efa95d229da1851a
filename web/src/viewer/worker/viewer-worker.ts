/// <reference lib="webworker" />

import { seedPoints, traceStreamline } from '../fields/streamlines.ts';
import { TetLocator } from '../fields/tet-locator.ts';
import { SlabIndex } from '../geometry/slab-index.ts';
import { sliceTetrahedra } from '../geometry/slice.ts';
import { bodySurfaces, triangleEdges, usedVertices } from '../geometry/surface.ts';
import { thinPoints, thinSlicePoints } from '../geometry/thin-points.ts';
import type {
  MeshJob,
  MeshReply,
  SitesJob,
  SliceJob,
  SliceReply,
  StreamlineJob,
  StreamlineReply,
  WorkerRequest,
  WorkerResponse,
} from './worker-protocol.ts';

// The heavy geometry work off the page's thread: the page never freezes on a million tetrahedra.
const scope = self as unknown as DedicatedWorkerGlobalScope;

let mesh: MeshJob | null = null;
let surfaceVertices: Uint32Array = new Uint32Array(0);
let locator: TetLocator | null = null;
let slabs: SlabIndex | null = null;

function onMesh(job: MeshJob): MeshReply {
  mesh = job;
  locator = null;
  slabs = null;
  const nv = job.positions.length / 3;
  let display = job.triangles;
  let groups: [number, number][] = job.triangleGroups ?? [[0, job.triangles.length / 3]];
  const reply: Partial<MeshReply> = {};
  if (job.tets && job.tets.length > 0 && job.tetBodies && job.bodyCount > 1) {
    reply.bodySurfaces = bodySurfaces(
      job.tets,
      job.tetBodies,
      job.triangles,
      job.triangleFaceIds,
      job.bodyCount,
    );
    display = reply.bodySurfaces.triangles;
    groups = reply.bodySurfaces.groups;
  } else if (display.length === 0 && job.tets && job.tets.length > 0) {
    const surfaces = bodySurfaces(
      job.tets,
      new Uint32Array(job.tets.length / 4),
      new Uint32Array(0),
      undefined,
      1,
    );
    reply.boundary = surfaces.triangles;
    display = surfaces.triangles;
    groups = [[0, display.length / 3]];
  }
  surfaceVertices = usedVertices(display, nv);
  // Edges per body, so hiding a body hides its wireframe too.
  const parts = groups.map(([start, count]) =>
    triangleEdges(display.subarray(3 * start, 3 * (start + count))),
  );
  const edges = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
  const edgeGroups: [number, number][] = [];
  let at = 0;
  for (const part of parts) {
    edges.set(part, at);
    edgeGroups.push([at / 2, part.length / 2]);
    at += part.length;
  }
  return { ...reply, edges, edgeGroups, surfaceVertices: surfaceVertices.slice() };
}

function onSlice(job: SliceJob): SliceReply {
  if (!mesh?.tets) throw new Error('No volume mesh to cut');
  const t0 = performance.now();
  if (!slabs?.sameNormal(job.normal)) slabs = new SlabIndex(mesh.positions, mesh.tets, job.normal);
  const slice = sliceTetrahedra(mesh.positions, mesh.tets, job.normal, job.offset, {
    tetBodies: mesh.tetBodies,
    visibleBodies: job.visibleBodies,
    candidates: slabs.candidates(job.offset),
    projection: slabs.projection,
  });
  const sites = thinSlicePoints(slice.positions, job.siteCount);
  return { ...slice, sites, computeMs: performance.now() - t0 };
}

function onSites(job: SitesJob): Uint32Array {
  if (!mesh) return new Uint32Array(0);
  if (job.source === 'surface') return thinPoints(mesh.positions, surfaceVertices, job.count, 2);
  return thinPoints(mesh.positions, null, job.count, 3);
}

function onStreamlines(job: StreamlineJob): StreamlineReply {
  if (!mesh?.tets || mesh.tets.length === 0) throw new Error('Streamlines need a volume mesh');
  locator ??= new TetLocator(mesh.positions, mesh.tets);
  let maxMag = 0;
  for (let i = 0; i < job.magnitudes.length; i++)
    if (job.magnitudes[i]! > maxMag) maxMag = job.magnitudes[i]!;
  const seeds = seedPoints(locator, job.magnitudes, job.count, job.plane);
  const step = locator.diagonal / 300;
  const segments: number[] = [];
  const mags: number[] = [];
  let lines = 0;
  for (const seed of seeds) {
    const line = traceStreamline(locator, job.vectors, seed, {
      step,
      maxSteps: 1500,
      minMagnitude: maxMag * 1e-6,
    });
    if (!line || line.magnitudes.length < 2) continue;
    lines++;
    for (let i = 0; i + 1 < line.magnitudes.length; i++) {
      segments.push(...line.points.slice(3 * i, 3 * i + 6));
      mags.push(line.magnitudes[i]!, line.magnitudes[i + 1]!);
    }
  }
  return { segments: Float32Array.from(segments), magnitudes: Float32Array.from(mags), lines };
}

function transferablesOf(value: unknown): Transferable[] {
  const out = new Set<ArrayBuffer>();
  const visit = (v: unknown, depth: number) => {
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer) out.add(v.buffer);
    } else if (v && typeof v === 'object' && depth < 3) {
      for (const inner of Object.values(v)) visit(inner, depth + 1);
    }
  };
  visit(value, 0);
  return [...out];
}

scope.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const { id, kind, job } = event.data;
  try {
    let result: unknown;
    if (kind === 'mesh') result = onMesh(job as MeshJob);
    else if (kind === 'slice') result = onSlice(job as SliceJob);
    else if (kind === 'sites') result = onSites(job as SitesJob);
    else result = onStreamlines(job as StreamlineJob);
    scope.postMessage({ id, ok: true, result } satisfies WorkerResponse, transferablesOf(result));
  } catch (err) {
    scope.postMessage({
      id,
      ok: false,
      error: err instanceof Error ? err.message : String(err),
    } satisfies WorkerResponse);
  }
};
