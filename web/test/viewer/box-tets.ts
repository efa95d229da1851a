/** A structured tetrahedral mesh of a box (six Kuhn tetrahedra per cell), as typed arrays. */
export function boxTets(
  lo: [number, number, number],
  hi: [number, number, number],
  n: [number, number, number],
): { positions: Float32Array; tets: Uint32Array } {
  const [nx, ny, nz] = n;
  const positions: number[] = [];
  for (let i = 0; i <= nx; i++)
    for (let j = 0; j <= ny; j++)
      for (let k = 0; k <= nz; k++)
        positions.push(
          lo[0] + ((hi[0] - lo[0]) * i) / nx,
          lo[1] + ((hi[1] - lo[1]) * j) / ny,
          lo[2] + ((hi[2] - lo[2]) * k) / nz,
        );
  const vid = (i: number, j: number, k: number) => (i * (ny + 1) + j) * (nz + 1) + k;
  const kuhn = [
    [0, 1, 3, 7],
    [0, 1, 5, 7],
    [0, 2, 3, 7],
    [0, 2, 6, 7],
    [0, 4, 5, 7],
    [0, 4, 6, 7],
  ];
  const tets: number[] = [];
  for (let i = 0; i < nx; i++)
    for (let j = 0; j < ny; j++)
      for (let k = 0; k < nz; k++)
        for (const t of kuhn)
          for (const c of t) tets.push(vid(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1)));
  return { positions: Float32Array.from(positions), tets: Uint32Array.from(tets) };
}
