import { Worker } from 'node:worker_threads';
import { meshHashBytes } from '@fieldline/contracts';
import { transferable } from '../storage/worker-pool.ts';
import { JSON_MEMBER_FUNCTIONS, jsonArrayLength, jsonMembers } from './json-members.ts';
import type { ResultsSummary } from './study-outputs.ts';

/**
 * Reads results files for studies on a worker thread, so a large results.json (hundreds of MB for a fine
 * mesh) is never parsed on the event loop: the bytes are handed over (transferred, not copied) and only
 * small answers come back — the numbers a study collects, or a point's job input as JSON bytes.
 *
 * The worker's code is a string (eval) because the server ships as one bundled file (scripts/build-server.mjs).
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const parse = (bytes) => JSON.parse(Buffer.from(bytes).toString('utf8'));
// The mesh's content hash (server/src/fea/mesh-hash.ts), with the contracts' own byte layout: the function's
// source is put here (it uses only typed arrays and TextEncoder), so the two cannot drift apart.
const meshHashBytes = (${meshHashBytes.toString()});
const meshHash = (mesh) => createHash('sha256').update(meshHashBytes(mesh)).digest('hex');

// The members a summary reads, found in the text without parsing the rest (json-members.ts): the mesh and
// fields are most of a results file.
${JSON_MEMBER_FUNCTIONS.map((f) => f.toString()).join('\n')}
const SUMMARY_MEMBERS = ['quantities', 'modes', 'eigenmodes', 's_parameters', 'solver_info', 'tetrahedra'];
function summaryOfText(bytes) {
  const b = new Uint8Array(bytes);
  const spans = ${jsonMembers.name}(b, SUMMARY_MEMBERS);
  const r = {};
  for (const [name, [start, end]] of spans)
    if (name !== 'tetrahedra') r[name] = JSON.parse(new TextDecoder().decode(b.subarray(start, end)));
  const t = spans.get('tetrahedra');
  return summary(r, t && b[t[0]] === 0x5b ? ${jsonArrayLength.name}(b, t[0], t[1]) : null);
}

/** \`tets\`: the length of the results' \`tetrahedra\` array, null when they have none. */
function summary(r, tets) {
  const modes = Array.isArray(r.modes) ? r.modes.filter((m) => m && !m.rigid_body).map((m) => m.frequency)
    : Array.isArray(r.eigenmodes) ? r.eigenmodes.map((m) => m && m.frequency_hz) : [];
  const sp = r.s_parameters;
  return {
    quantities: r.quantities && typeof r.quantities === 'object' ? r.quantities : {},
    frequencies: modes.filter((f) => typeof f === 'number'),
    sParameters: sp && Array.isArray(sp.frequencies) && Array.isArray(sp.matrix)
      ? { frequencies: sp.frequencies, matrix: sp.matrix, portIds: Array.isArray(sp.port_ids) ? sp.port_ids : [] }
      : null,
    tetrahedra: tets !== null ? tets
      : r.solver_info && typeof r.solver_info.elements === 'number' ? r.solver_info.elements : null,
  };
}

// Every "faces" list of the config holds CAD face (patch) ids; each becomes the new mesh's triangles on them.
function mapFaces(value, patchTriangles) {
  if (Array.isArray(value)) return value.map((v) => mapFaces(v, patchTriangles));
  if (!value || typeof value !== 'object') return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'faces' && Array.isArray(v) && v.every((x) => Number.isInteger(x)))
      out[k] = v.flatMap((patch) => patchTriangles.get(patch) || []);
    else out[k] = mapFaces(v, patchTriangles);
  }
  return out;
}

function pointInput(results, config, units, uploadId, testHooks) {
  const volume = results.mesh_data && typeof results.mesh_data === 'object' ? results.mesh_data
    : results.mesh && typeof results.mesh === 'object' ? results.mesh : results;
  const tets = Array.isArray(volume.tetrahedra) ? volume.tetrahedra : [];
  if (tets.length === 0) throw new Error('the meshing job returned no tetrahedra');
  const faces = Array.isArray(volume.faces) ? volume.faces : [];
  const patches = Array.isArray(volume.face_patches) ? volume.face_patches : null;
  const patchTriangles = new Map();
  if (patches) patches.forEach((p, i) => {
    const list = patchTriangles.get(p);
    if (list) list.push(i + 1); else patchTriangles.set(p, [i + 1]);
  });
  const mesh_data = {
    vertices: volume.vertices || [], faces, tetrahedra: tets,
    tetrahedron_regions: volume.tetrahedron_regions, region_names: volume.region_names,
    face_patches: patches || undefined, units, source_upload_id: uploadId,
  };
  const input = Buffer.from(JSON.stringify({ mesh_data, config: mapFaces(config, patchTriangles), test_hooks: testHooks }));
  return { input, vertices: mesh_data.vertices.length, faces: faces.length, tetrahedra: tets.length, hasPatches: !!patches, meshHash: meshHash(mesh_data) };
}

// A sweep point on the study's shared mesh: that mesh with the point's config.
function baseInput(base, config, testHooks) {
  const mesh = base.mesh_data;
  const input = Buffer.from(JSON.stringify({ mesh_data: mesh, config, test_hooks: testHooks }));
  const n = (a) => (Array.isArray(a) ? a.length : 0);
  return { input, vertices: n(mesh.vertices), faces: n(mesh.faces), tetrahedra: n(mesh.tetrahedra), hasPatches: Array.isArray(mesh.face_patches), meshHash: meshHash(mesh) };
}

parentPort.on('message', (m) => {
  try {
    if (m.op === 'summary') parentPort.postMessage({ id: m.id, ok: summaryOfText(m.bytes) });
    else {
      const out = m.op === 'base' ? baseInput(parse(m.bytes), m.config, m.testHooks) : pointInput(parse(m.bytes), m.config, m.units, m.uploadId, m.testHooks);
      const ab = out.input.buffer.slice(out.input.byteOffset, out.input.byteOffset + out.input.byteLength);
      parentPort.postMessage({ id: m.id, ok: { ...out, input: ab } }, [ab]);
    }
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String((err && err.message) || err) });
  }
});
`;

/** A point's analysis input built from its meshing job's results, and the mesh's counts. */
export interface PointInput {
  input: Buffer;
  vertices: number;
  faces: number;
  tetrahedra: number;
  hasPatches: boolean;
  /** the content hash of the point's analysis mesh (jobs.mesh_hash, as a plain submit stores it) */
  meshHash: string;
}

export class ResultsReader {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  /** The quantities, frequencies and S-parameters of a results file (`results` is given away: emptied). */
  summary(results: Buffer): Promise<ResultsSummary> {
    return this.ask({ op: 'summary' }, results, true) as Promise<ResultsSummary>;
  }

  /**
   * The analysis input of a point whose mesh a meshing job made: that mesh, and `config` with each `faces`
   * list (CAD face ids) replaced by the new mesh's triangles on those CAD faces.
   */
  async pointInput(
    meshResults: Buffer,
    config: unknown,
    units: string | undefined,
    uploadId: string,
    testHooks?: unknown,
  ): Promise<PointInput> {
    const out = (await this.ask(
      { op: 'point', config, units, uploadId, testHooks },
      meshResults,
    )) as PointInput & {
      input: ArrayBuffer;
    };
    return { ...out, input: Buffer.from(out.input) };
  }

  /** A sweep point's input: the study's stored mesh (`{mesh_data}`) with the point's config. */
  async baseInput(base: Buffer, config: unknown, testHooks?: unknown): Promise<PointInput> {
    const out = (await this.ask({ op: 'base', config, testHooks }, base)) as PointInput & {
      input: ArrayBuffer;
    };
    return { ...out, input: Buffer.from(out.input) };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  /**
   * With `giveAway`, `bytes` is moved to the worker when it has its memory to itself (the caller's buffer is
   * then emptied: it must not read it again); otherwise the worker gets a copy.
   */
  private ask(message: Record<string, unknown>, bytes: Buffer, giveAway = false): Promise<unknown> {
    const worker = this.start();
    const id = this.nextId++;
    // A copy the worker owns (a pooled Buffer's memory cannot be transferred).
    const owned = ((giveAway ? transferable(bytes)[0] : undefined) ??
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)) as ArrayBuffer;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ ...message, id, bytes: owned }, [owned]);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.on('message', (m: { id: number; ok?: unknown; error?: string }) => {
      const waiter = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (this.waiting.size === 0) worker.unref();
      if (!waiter) return;
      if (m.error !== undefined) waiter.reject(new Error(m.error));
      else waiter.resolve(m.ok);
    });
    const failAll = (err: Error) => {
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
      if (this.worker === worker) this.worker = null;
    };
    worker.on('error', failAll);
    worker.on('exit', () => failAll(new Error('the results reader stopped')));
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
