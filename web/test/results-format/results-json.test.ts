// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  ResultsJsonError,
  viewerMeshFromMeshData,
  viewerPayloadFromResultsJson,
} from '../../src/results-format/index.ts';

const tet = {
  vertices: [
    [0, 0, 0],
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  faces: [
    [0, 1, 2],
    [0, 1, 3],
    [0, 2, 3],
    [1, 2, 3],
  ],
  tetrahedra: [[0, 1, 2, 3]],
};

describe('results JSON → viewer payload', () => {
  it('reads dense and sparse magnitudes, index→vector fields and animation frames', () => {
    const payload = viewerPayloadFromResultsJson({
      solver_info: { elements: 1, matrix_size: 4, non_zeros: 16, frequency: 0 },
      ...tet,
      length_unit: 'mm',
      field_magnitudes: {
        e_magnitudes: { format: 'dense', data: [1, 2, 3, 4], size: 4 },
        h_magnitudes: { format: 'sparse', data: { '2': 7.5 }, size: 4 },
      },
      efields: { format: 'dense', data: { '0': [1, 0, 0], '3': [0, 0, -2] }, size: 4 },
      animation: {
        frames: 2,
        kind: 'phase',
        frame_values: [0, 180],
        data: [
          { e_magnitudes: [1, 1, 1, 1] },
          {
            efields: [
              [0, 1, 0],
              [0, 1, 0],
              [0, 1, 0],
              [0, 1, 0],
            ],
          },
        ],
      },
    });
    expect(payload.mesh.units).toBe('mm');
    expect(Array.from(payload.mesh.triangles)).toEqual([0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3]);
    expect(payload.mesh.triangleFaceIds).toBeUndefined(); // triangle i is face i + 1
    // An older file (the spec's EM keys only): the catalogue is built from them.
    const { electric_field: e, magnetic_field: h } = payload.fields!;
    expect(e).toMatchObject({ label: 'Electric field', unit: 'V/m', kind: 'vector', location: 'vertex' });
    expect(Array.from(e!.values)).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2]);
    // Only magnitudes of H: a scalar under the field's name.
    expect(h).toMatchObject({ unit: 'A/m', kind: 'scalar' });
    expect(Array.from(h!.values)).toEqual([0, 0, 7.5, 0]);
    expect(payload.animation?.axis).toBe('phase');
    expect(payload.animation?.frameValues).toEqual([0, 180]);
    expect(Array.from(payload.animation!.frames[0]!.electric_field!)).toEqual([1, 1, 1, 1]);
    expect(Array.from(payload.animation!.frames[1]!.electric_field!.subarray(0, 3))).toEqual([0, 1, 0]);
  });

  it('unwraps fea_results and keeps face ids when polygons are split', () => {
    const payload = viewerPayloadFromResultsJson({
      fea_results: {
        vertices: [
          [0, 0, 0],
          [1, 0, 0],
          [1, 1, 0],
          [0, 1, 0],
          [0, 0, 1],
        ],
        faces: [
          [0, 1, 2, 3],
          [0, 1, 4],
        ],
      },
    });
    expect(Array.from(payload.mesh.triangles)).toEqual([0, 1, 2, 0, 2, 3, 0, 1, 4]);
    expect(Array.from(payload.mesh.triangleFaceIds!)).toEqual([1, 1, 2]);
    expect(payload.fields).toBeUndefined();
  });

  it('merges multi-body results into bodies with offset vertices and continuing face ids', () => {
    const payload = viewerPayloadFromResultsJson({
      type: 'multi_body',
      success_count: 2,
      mesh_count: 3,
      results: [
        {
          success: true,
          mesh_name: 'inner',
          result_data: { ...tet, field_magnitudes: { e_magnitudes: [1, 1, 1, 1] } },
        },
        { success: false, mesh_name: 'broken' },
        {
          success: true,
          mesh_name: 'outer',
          result_data: { ...tet, field_magnitudes: { e_magnitudes: [2, 2, 2, 2] } },
        },
      ],
    });
    const { mesh, fields } = payload;
    expect(mesh.bodies.map((b) => b.name)).toEqual(['inner', 'outer']);
    expect(mesh.positions.length).toBe(24);
    expect(Array.from(mesh.triangles.subarray(12, 15))).toEqual([4, 5, 6]);
    expect(Array.from(mesh.triangleFaceIds!)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(Array.from(mesh.triangleBodies!)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(Array.from(mesh.tetrahedra!)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(Array.from(mesh.tetrahedronBodies!)).toEqual([0, 1]);
    expect(Array.from(fields!.electric_field!.values)).toEqual([1, 1, 1, 1, 2, 2, 2, 2]);
  });

  it('refuses results without geometry or with indices past the vertices, with the spec messages', () => {
    expect(() => viewerPayloadFromResultsJson({ solver_info: {} })).toThrow(
      'No result data available for visualization',
    );
    expect(() => viewerPayloadFromResultsJson({ type: 'multi_body', results: [{ success: false }] })).toThrow(
      'No successful results found in multi-body analysis',
    );
    expect(() => viewerPayloadFromResultsJson({ ...tet, tetrahedra: [[0, 1, 2, 9]] })).toThrow(
      ResultsJsonError,
    );
  });

  it('turns mesh data (single or multi-body surfaces) into a ViewerMesh', () => {
    expect(viewerMeshFromMeshData({ ...tet, units: 'in' }).units).toBe('in');
    const multi = viewerMeshFromMeshData({
      format: 'multi-body',
      mesh_count: 2,
      meshes: [
        { name: 'a', vertices: tet.vertices, faces: tet.faces },
        { name: 'b', vertices: tet.vertices, faces: tet.faces.slice(0, 2) },
      ],
    });
    expect(multi.bodies.map((b) => b.name)).toEqual(['a', 'b']);
    expect(multi.triangles.length).toBe(18);
    expect(multi.tetrahedra).toBeUndefined();
  });
});
