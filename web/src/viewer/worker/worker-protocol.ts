import type { SliceResult } from '../geometry/slice.ts';
import type { BodySurfaces } from '../geometry/surface.ts';

/** Messages between the viewer page and its Web Worker (surface extraction, slicing, streamlines). */

export type Vec3 = [number, number, number];

export interface MeshJob {
  positions: Float32Array;
  triangles: Uint32Array;
  /** [first triangle, count] per body when the triangles come grouped by body */
  triangleGroups?: [number, number][];
  triangleFaceIds?: Uint32Array;
  tets?: Uint32Array;
  tetBodies?: Uint32Array;
  bodyCount: number;
}
export interface MeshReply {
  /** wireframe edges of the display surface (vertex pairs), grouped by body */
  edges: Uint32Array;
  /** [first pair, pair count] per body in `edges` */
  edgeGroups: [number, number][];
  /** vertices of the display surface (arrow sites in solid modes) */
  surfaceVertices: Uint32Array;
  /** per-body closed surfaces, for multi-body volume meshes */
  bodySurfaces?: BodySurfaces;
  /** boundary of a volume mesh that came without surface faces */
  boundary?: Uint32Array;
}

export interface SliceJob {
  normal: Vec3;
  offset: number;
  visibleBodies: boolean[];
  /** how many arrow sites to pick on the cut */
  siteCount: number;
}
export type SliceReply = SliceResult & { sites: Uint32Array; computeMs: number };

export interface SitesJob {
  source: 'surface' | 'volume';
  count: number;
}

export interface StreamlineJob {
  vectors: Float32Array;
  magnitudes: Float32Array;
  count: number;
  plane?: { normal: Vec3; offset: number };
}
export interface StreamlineReply {
  /** segment endpoints (two xyz per segment) */
  segments: Float32Array;
  /** |v| at each endpoint */
  magnitudes: Float32Array;
  lines: number;
}

export interface WorkerJobs {
  mesh: [MeshJob, MeshReply];
  slice: [SliceJob, SliceReply];
  sites: [SitesJob, Uint32Array];
  streamlines: [StreamlineJob, StreamlineReply];
}
export type WorkerJobKind = keyof WorkerJobs;

export interface WorkerRequest<K extends WorkerJobKind = WorkerJobKind> {
  id: number;
  kind: K;
  job: WorkerJobs[K][0];
}
export type WorkerResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: string };
