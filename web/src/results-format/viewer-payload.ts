import type { ParentToViewerMessage, ViewerAnimation, ViewerFields, ViewerMesh } from '@fieldline/contracts';

/** What the viewer needs to show one result: the body of a `load-mesh` message. */
export interface ViewerPayload {
  mesh: ViewerMesh;
  fields?: ViewerFields;
  animation?: ViewerAnimation;
}

/** The `load-mesh` message for a payload. */
export function loadMeshMessage(payload: ViewerPayload): ParentToViewerMessage {
  return { type: 'load-mesh', ...payload };
}

/**
 * The distinct ArrayBuffers under a payload's typed arrays, for `postMessage(message, origin, transfer)`:
 * transferring moves them to the viewer without a copy (the sender's arrays become unusable).
 */
export function payloadTransferables(payload: ViewerPayload): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  const add = (value: unknown) => {
    if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer) buffers.add(value.buffer);
  };
  for (const value of Object.values(payload.mesh)) add(value);
  for (const field of Object.values(payload.fields ?? {})) {
    add(field.values);
    add(field.imag);
  }
  for (const frame of payload.animation?.frames ?? []) for (const value of Object.values(frame)) add(value);
  return [...buffers];
}

/** |v| per vertex from xyz vectors. */
export function vectorMagnitudes(vectors: Float32Array): Float32Array {
  const n = Math.floor(vectors.length / 3);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const x = vectors[3 * i]!;
    const y = vectors[3 * i + 1]!;
    const z = vectors[3 * i + 2]!;
    out[i] = Math.sqrt(x * x + y * y + z * z);
  }
  return out;
}
