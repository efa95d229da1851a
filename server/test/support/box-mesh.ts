/** A structured tetrahedral box mesh (six tetrahedra per cell) and its boundary faces, for tests. */
export interface BoxMesh {
  vertices: [number, number, number][];
  tetrahedra: number[][];
  faces: number[][];
}

const KUHN = [
  [0, 1, 3, 7],
  [0, 1, 5, 7],
  [0, 2, 3, 7],
  [0, 2, 6, 7],
  [0, 4, 5, 7],
  [0, 4, 6, 7],
];

export function boxMesh(size: [number, number, number], cells: [number, number, number]): BoxMesh {
  const [nx, ny, nz] = cells;
  const vertices: [number, number, number][] = [];
  for (let i = 0; i <= nx; i++)
    for (let j = 0; j <= ny; j++)
      for (let k = 0; k <= nz; k++)
        vertices.push([(size[0] * i) / nx, (size[1] * j) / ny, (size[2] * k) / nz]);
  const vid = (i: number, j: number, k: number) => (i * (ny + 1) + j) * (nz + 1) + k;
  const tetrahedra: number[][] = [];
  for (let i = 0; i < nx; i++)
    for (let j = 0; j < ny; j++)
      for (let k = 0; k < nz; k++) {
        const corner = (b: number) => vid(i + (b & 1), j + ((b >> 1) & 1), k + ((b >> 2) & 1));
        for (const t of KUHN) tetrahedra.push(t.map(corner));
      }
  const count = new Map<string, { n: number; face: number[] }>();
  for (const t of tetrahedra) {
    for (const skip of [0, 1, 2, 3]) {
      const face = t.filter((_, idx) => idx !== skip);
      const key = [...face].sort((a, b) => a - b).join(',');
      const entry = count.get(key);
      if (entry) entry.n++;
      else count.set(key, { n: 1, face });
    }
  }
  const faces = [...count.values()].filter((e) => e.n === 1).map((e) => e.face);
  return { vertices, tetrahedra, faces };
}

/** 1-based ids of the faces lying in the plane x[axis] = value. */
export function facesOnPlane(mesh: BoxMesh, axis: 0 | 1 | 2, value: number): number[] {
  const ids: number[] = [];
  mesh.faces.forEach((f, i) => {
    if (f.every((v) => Math.abs((mesh.vertices[v] as number[])[axis]! - value) < 1e-12)) ids.push(i + 1);
  });
  return ids;
}
