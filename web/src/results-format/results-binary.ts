import {
  FIELD_COMPONENTS,
  type FieldKind,
  FRAME_AXES,
  type FrameAxis,
  type ViewerAnimation,
  type ViewerFields,
  type ViewerMesh,
} from '@fieldline/contracts';
import { catalogueFromSpecKeys } from './field-catalogue.ts';
import type { ViewerPayload } from './viewer-payload.ts';

/**
 * Decoder for `results.bin`, the engine's binary twin of results.json (docs/results-binary.md):
 * "FLRB", uint32 version, uint32 header length, a JSON header, then 16-byte aligned little-endian arrays.
 * Arrays are returned as views on the given buffer (no copy).
 */

/** The version the engine writes; version 1 files (EM arrays by the spec's names) are still read. */
export const RESULTS_BINARY_VERSION = 2;
const READABLE_VERSIONS = [1, 2];

export interface BinaryArrayEntry {
  dtype: 'float32' | 'uint32';
  shape: number[];
  offset: number;
  byte_length: number;
}

export interface BinaryFieldEntry {
  label: string;
  unit: string;
  kind: FieldKind;
  location: 'vertex' | 'cell';
  complex: boolean;
  role?: string;
}

export interface ResultsBinaryHeader {
  format: string;
  version: number;
  units: string;
  region_names: string[];
  /** version 2: the named-field catalogue (arrays `fields/<name>`, `fields/<name>/imag`) */
  fields?: Record<string, BinaryFieldEntry>;
  animation: {
    /** version 2 */
    axis?: string;
    unit?: string | null;
    frame_labels?: string[];
    /** version 1 */
    kind?: 'time' | 'phase';
    frame_count: number;
    frame_values: number[];
  } | null;
  arrays: Record<string, BinaryArrayEntry>;
}

export class ResultsBinaryError extends Error {
  override name = 'ResultsBinaryError';
}

const littleEndianHost = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function asArrayBuffer(input: ArrayBuffer | Uint8Array): ArrayBuffer {
  if (input instanceof ArrayBuffer) return input;
  // Views at unaligned offsets (Node Buffers) cannot back Float32Array views: copy once.
  const copy = new Uint8Array(input.byteLength);
  copy.set(input);
  return copy.buffer;
}

export function readResultsBinaryHeader(input: ArrayBuffer | Uint8Array): ResultsBinaryHeader {
  const buffer = asArrayBuffer(input);
  if (buffer.byteLength < 12) throw new ResultsBinaryError('Not a Fieldline results file (too short).');
  const bytes = new Uint8Array(buffer);
  const magic = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  if (magic !== 'FLRB') throw new ResultsBinaryError('Not a Fieldline results file (bad magic).');
  const view = new DataView(buffer);
  const version = view.getUint32(4, true);
  if (!READABLE_VERSIONS.includes(version)) {
    throw new ResultsBinaryError(`Unsupported results file version ${version}.`);
  }
  const headerLength = view.getUint32(8, true);
  if (12 + headerLength > buffer.byteLength)
    throw new ResultsBinaryError('Results file header is truncated.');
  let header: ResultsBinaryHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLength)));
  } catch {
    throw new ResultsBinaryError('Results file header is not valid JSON.');
  }
  for (const [name, entry] of Object.entries(header.arrays ?? {})) {
    const elements = entry.shape.reduce((a, b) => a * b, 1);
    if (
      (entry.dtype !== 'float32' && entry.dtype !== 'uint32') ||
      entry.offset % 4 !== 0 ||
      entry.byte_length !== elements * 4 ||
      entry.offset + entry.byte_length > buffer.byteLength
    ) {
      throw new ResultsBinaryError(`Results file array '${name}' is malformed.`);
    }
  }
  return header;
}

/** Decodes results.bin into the viewer's payload (typed-array views on `input`'s buffer). */
export function decodeResultsBinary(input: ArrayBuffer | Uint8Array): ViewerPayload & {
  header: ResultsBinaryHeader;
} {
  const buffer = asArrayBuffer(input);
  const header = readResultsBinaryHeader(buffer);
  const f32 = (name: string): Float32Array | undefined => {
    const entry = header.arrays[name];
    if (!entry) return undefined;
    if (entry.dtype !== 'float32') throw new ResultsBinaryError(`Array '${name}' should be float32.`);
    return fromLittleEndian(new Float32Array(buffer, entry.offset, entry.byte_length / 4));
  };
  const u32 = (name: string): Uint32Array | undefined => {
    const entry = header.arrays[name];
    if (!entry) return undefined;
    if (entry.dtype !== 'uint32') throw new ResultsBinaryError(`Array '${name}' should be uint32.`);
    return fromLittleEndian(new Uint32Array(buffer, entry.offset, entry.byte_length / 4));
  };

  const positions = f32('vertices');
  if (!positions) throw new ResultsBinaryError('Results file has no vertices.');
  const regionNames = header.region_names ?? [];
  const tetrahedronBodies = u32('tetrahedron_regions');
  const mesh: ViewerMesh = {
    positions,
    triangles: u32('triangles') ?? new Uint32Array(0),
    tetrahedra: u32('tetrahedra'),
    triangleBodies: u32('triangle_regions'),
    tetrahedronBodies,
    bodies: bodyList(regionNames, tetrahedronBodies),
    units: header.units || 'm',
  };
  const v1 = header.version === 1;
  const fields: ViewerFields = v1 ? catalogueFromSpecKeys((key) => f32(key)) : {};
  for (const [name, entry] of Object.entries(header.fields ?? {})) {
    const values = f32(`fields/${name}`);
    if (!values) continue;
    const imag = f32(`fields/${name}/imag`);
    const count = entry.location === 'cell' ? (mesh.tetrahedra?.length ?? 0) / 4 : positions.length / 3;
    if (values.length !== count * FIELD_COMPONENTS[entry.kind]) {
      throw new ResultsBinaryError(`Results file field '${name}' does not match the mesh.`);
    }
    fields[name] = {
      label: entry.label,
      unit: entry.unit,
      kind: entry.kind,
      location: entry.location === 'cell' ? 'cell' : 'vertex',
      ...(entry.role ? { role: entry.role } : {}),
      values,
      ...(imag ? { imag } : {}),
    };
  }
  let animation: ViewerAnimation | undefined;
  const anim = header.animation;
  if (anim && anim.frame_count > 0) {
    const frames: Record<string, Float32Array>[] = [];
    for (let k = 0; k < anim.frame_count; k++) {
      if (v1) {
        const legacy = catalogueFromSpecKeys((key) => f32(`frames/${k}/${key}`));
        frames.push(Object.fromEntries(Object.entries(legacy).map(([name, f]) => [name, f.values])));
        continue;
      }
      const frame: Record<string, Float32Array> = {};
      for (const name of Object.keys(fields)) {
        const values = f32(`frames/${k}/${name}`);
        if (values) frame[name] = values;
      }
      frames.push(frame);
    }
    const axisName = String(anim.axis ?? anim.kind ?? 'time');
    const axis: FrameAxis = (FRAME_AXES as readonly string[]).includes(axisName)
      ? (axisName as FrameAxis)
      : 'time';
    animation = {
      frames,
      axis,
      frameValues: anim.frame_values,
      ...(anim.unit ? { unit: anim.unit } : {}),
      ...(anim.frame_labels?.length ? { frameLabels: anim.frame_labels } : {}),
    };
  }
  return {
    header,
    mesh,
    ...(Object.keys(fields).length > 0 ? { fields } : {}),
    ...(animation ? { animation } : {}),
  };
}

/** One entry per body: named from region_names, or body0, body1, … for the ids the tetrahedra use. */
export function bodyList(
  names: string[],
  tetrahedronBodies?: Uint32Array,
): { name: string; visible: boolean }[] {
  let count = names.length;
  if (tetrahedronBodies) for (const b of tetrahedronBodies) if (b + 1 > count) count = b + 1;
  return Array.from({ length: count }, (_, i) => ({ name: names[i] ?? `body${i}`, visible: true }));
}

function fromLittleEndian<T extends Float32Array | Uint32Array>(array: T): T {
  if (littleEndianHost) return array;
  // Big-endian hosts (rare): byte-swap into a fresh array.
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  const swapped = new Uint8Array(array.byteLength);
  for (let i = 0; i < bytes.length; i += 4) {
    swapped[i] = bytes[i + 3]!;
    swapped[i + 1] = bytes[i + 2]!;
    swapped[i + 2] = bytes[i + 1]!;
    swapped[i + 3] = bytes[i]!;
  }
  return new (array.constructor as new (b: ArrayBuffer) => T)(swapped.buffer);
}
