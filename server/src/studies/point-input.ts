/**
 * A sweep point's job input on the study's shared mesh, made from the stored base (`{"mesh_data":…}`, as
 * StudyService.create writes it) without parsing it: the mesh's JSON text is copied as it is and the point's
 * config is appended. Parsing and re-serialising the mesh for every point (and hashing it again) cost a
 * worker thread ≈ 10 ms a point on a 3,000-tetrahedron mesh, and the first point waited for that thread to
 * start (bench/studies). The result is byte for byte `JSON.stringify({mesh_data, config, test_hooks})`.
 */
const PREFIX = Buffer.from('{"mesh_data":');
const SUFFIX = 0x7d; // }

/** The mesh's counts and content hash, computed once when the study is created (its `spec.baseMesh`). */
export interface BaseMeshFacts {
  hash: string;
  vertices: number;
  faces: number;
  tetrahedra: number;
  hasPatches: boolean;
}

/** `{"mesh_data":<base's mesh text>,"config":…,"test_hooks":…}`; null when `base` is not in that shape. */
export function sweepPointInput(base: Buffer, config: unknown, testHooks?: unknown): Buffer | null {
  if (base.length <= PREFIX.length + 1 || base[base.length - 1] !== SUFFIX) return null;
  if (!base.subarray(0, PREFIX.length).equals(PREFIX)) return null;
  const tail = `,"config":${JSON.stringify(config)}${
    testHooks === undefined ? '' : `,"test_hooks":${JSON.stringify(testHooks)}`
  }}`;
  return Buffer.concat([base.subarray(0, base.length - 1), Buffer.from(tail)]);
}
