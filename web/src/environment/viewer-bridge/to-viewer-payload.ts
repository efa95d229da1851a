import type { ViewerMesh } from '@fieldline/contracts';
import {
  decodeResultsBinary,
  type ViewerPayload,
  viewerMeshFromMeshData,
  viewerPayloadFromResultsJson,
} from '../../results-format/index.ts';
import type { ProblemMarkersPayload } from '../meshing/problem-markers.ts';

/**
 * Mesh data and results → the viewer's typed-array payloads. The conversions are the viewer issue's
 * (web/src/results-format/); this module only adds the environment's body visibility and problem markers.
 */

type Cells = ReadonlyArray<ReadonlyArray<number>>;

function withVisibility(mesh: ViewerMesh, visible: ReadonlyArray<boolean>): ViewerMesh {
  if (visible.length === 0) return mesh;
  return { ...mesh, bodies: mesh.bodies.map((b, i) => ({ ...b, visible: visible[i] ?? b.visible })) };
}

export function meshToViewerMesh(mesh: unknown, visible: ReadonlyArray<boolean> = []): ViewerMesh {
  return withVisibility(viewerMeshFromMeshData(mesh), visible);
}

export function resultsToViewer(result: unknown, visible: ReadonlyArray<boolean> = []): ViewerPayload {
  const payload = viewerPayloadFromResultsJson(result);
  return { ...payload, mesh: withVisibility(payload.mesh, visible) };
}

/** results.bin (GET /api/fea/results/{id}/binary) → the same payload without parsing JSON arrays. */
export function binaryResultsToViewer(
  buffer: ArrayBuffer,
  visible: ReadonlyArray<boolean> = [],
): ViewerPayload {
  const payload = decodeResultsBinary(buffer);
  return { ...payload, mesh: withVisibility(payload.mesh, visible) };
}

function flatten(cells: Cells, width: number): number[] {
  const out: number[] = [];
  for (const c of cells) for (let i = 0; i < width; i++) out.push(c[i] ?? 0);
  return out;
}

function triangulate(faces: Cells): number[] {
  const out: number[] = [];
  for (const f of faces) {
    for (let k = 1; k + 1 < f.length; k++) out.push(f[0]!, f[k]!, f[k + 1]!);
  }
  return out;
}

/** Problem markers: the payload's own surface with the problem vertices and triangles marked. */
export function problemMarkersToViewer(payload: ProblemMarkersPayload, messages: string[]) {
  const positions = flatten(payload.vertices, 3);
  const triangles = triangulate(payload.faces);
  const markedVertices: number[] = [];
  const markedFaces: number[] = [];
  for (const v of payload.problemVertices) {
    if (typeof v === 'number') markedVertices.push(v);
    else {
      markedVertices.push(positions.length / 3);
      positions.push(v[0] ?? 0, v[1] ?? 0, v[2] ?? 0);
    }
  }
  for (const f of payload.problemFaces) {
    if (typeof f === 'number') markedFaces.push(f);
    else if (f.length >= 3) {
      markedFaces.push(triangles.length / 3);
      triangles.push(f[0]!, f[1]!, f[2]!);
    }
  }
  const mesh: ViewerMesh = {
    positions: new Float32Array(positions),
    triangles: new Uint32Array(triangles),
    bodies: [],
    units: 'm',
  };
  return {
    mesh,
    problemMarkers: {
      vertices: new Uint32Array(markedVertices),
      faces: new Uint32Array(markedFaces),
      messages,
    },
  };
}
