import { describe, expect, it } from 'vitest';
import { parseSlivers, sliverMarkers } from '../../src/environment/meshing/slivers.ts';
import { problemMarkersToViewer } from '../../src/environment/viewer-bridge/to-viewer-payload.ts';
import { loadFile } from '../../src/environment/workflows/load-file.ts';
import { generateVolumeMesh } from '../../src/environment/workflows/run-meshing.ts';
import { FakeServer, json, makeDeps, tinyVolume } from './fakes.ts';

/** Issue 40: a volume mesh that kept slivers says so, and the slivers can be marked on the model. */
const report = {
  count: 2,
  on_surface: 1,
  cad_faces: [3],
  elements: [0, 1],
  surface_triangles: [2, 4],
  message: '2 of 2 tetrahedra are slivers … They sit at CAD faces 3.',
};

describe('slivers the volume mesh kept', () => {
  it('are read from the meshing results into the meshing state, and cleared by the next meshing', async () => {
    const server = new FakeServer()
      .on('/api/fea/submit', json({ status: 'queued', job_id: 'mj' }))
      .on(
        '/api/fea/status/mj',
        json({ status: 'completed', results: { ...tinyVolume, slivers: report } }),
        json({ status: 'completed', results: { ...tinyVolume, slivers: null } }),
      );
    const { deps, store } = makeDeps(server);
    const surface = { vertices: tinyVolume.vertices, faces: tinyVolume.faces };
    await loadFile(new File([JSON.stringify(surface)], 's.json'), deps);
    expect(await generateVolumeMesh(deps)).toBe(true);
    expect(store.get().meshing.slivers).toEqual({
      count: 2,
      message: report.message,
      surfaceTriangles: [2, 4],
      elements: [0, 1],
    });
    expect(await generateVolumeMesh(deps)).toBe(true);
    expect(store.get().meshing.slivers).toBeUndefined();
  });

  it('mark the triangles they touch and their corners inside the volume', () => {
    const mesh = {
      vertices: [
        [0, 0, 0],
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
        [0.3, 0.3, 0.3],
      ],
      faces: [
        [0, 1, 2],
        [0, 1, 3],
        [0, 2, 3],
        [1, 2, 3],
      ],
      tetrahedra: [
        [0, 1, 2, 4],
        [0, 1, 3, 4],
      ],
    };
    const slivers = parseSlivers({ slivers: report });
    expect(slivers).toBeDefined();
    const markers = sliverMarkers(mesh, slivers!);
    expect(markers.problemFaces).toEqual([1, 3]); // 0-based triangles of the viewer's mesh
    expect(markers.problemVertices).toEqual([4]); // the one corner no surface triangle shows
    const payload = problemMarkersToViewer(markers, [report.message]);
    expect([...payload.problemMarkers.faces]).toEqual([1, 3]);
    expect([...payload.problemMarkers.vertices]).toEqual([4]);
  });

  it('nothing is shown for a mesh without slivers or an older results file', () => {
    expect(parseSlivers({ slivers: null })).toBeUndefined();
    expect(parseSlivers({})).toBeUndefined();
    expect(parseSlivers({ slivers: { count: 0, message: '' } })).toBeUndefined();
  });
});
