/**
 * A coaxial test model with analytic fields, for the viewer's browser tests: an annulus a ≤ r ≤ b,
 * 0 ≤ z ≤ h, meshed with structured (r, φ, z) cells of six tetrahedra, two bodies (inner dielectric,
 * outer air). E = V/(r ln(b/a)) r̂, H = I/(2πr)·(0.4 + 1.2 z/h) φ̂ (made to vary along z, so the two
 * fields look different); phase frames scale E by cos φ and H by sin φ.
 */

export interface SyntheticModel {
  positions: number[];
  triangles: number[];
  tetrahedra: number[];
  tetrahedronBodies: number[];
  eVectors: number[];
  hVectors: number[];
  eMagnitude: number[];
  hMagnitude: number[];
  frames: { eVectors: number[]; hVectors: number[] }[];
  frameValues: number[];
}

const KUHN = [
  [0, 1, 3, 7],
  [0, 1, 5, 7],
  [0, 2, 3, 7],
  [0, 2, 6, 7],
  [0, 4, 5, 7],
  [0, 4, 6, 7],
];

export function coaxModel(
  options: { nr?: number; nphi?: number; nz?: number; frames?: number } = {},
): SyntheticModel {
  const { nr = 6, nphi = 40, nz = 4, frames = 12 } = options;
  const a = 0.3;
  const b = 1.0;
  const h = 0.8;
  const volts = 1000;
  const amps = 5;
  const positions: number[] = [];
  const vid = (i: number, j: number, k: number) => (i * nphi + (j % nphi)) * (nz + 1) + k;
  for (let i = 0; i <= nr; i++)
    for (let j = 0; j < nphi; j++)
      for (let k = 0; k <= nz; k++) {
        const r = a + ((b - a) * i) / nr;
        const phi = (2 * Math.PI * j) / nphi;
        positions.push(r * Math.cos(phi), r * Math.sin(phi), (h * k) / nz);
      }
  const tetrahedra: number[] = [];
  const tetrahedronBodies: number[] = [];
  for (let i = 0; i < nr; i++)
    for (let j = 0; j < nphi; j++)
      for (let k = 0; k < nz; k++) {
        const corner = (c: number) => vid(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
        for (const t of KUHN) {
          tetrahedra.push(...t.map(corner));
          tetrahedronBodies.push(i < nr / 2 ? 0 : 1);
        }
      }
  // Boundary faces (face id = index + 1).
  const count = new Map<string, { n: number; face: number[] }>();
  for (let t = 0; t < tetrahedra.length; t += 4) {
    const tet = tetrahedra.slice(t, t + 4);
    for (let skip = 0; skip < 4; skip++) {
      const face = tet.filter((_, idx) => idx !== skip);
      const key = [...face].sort((x, y) => x - y).join(',');
      const entry = count.get(key);
      if (entry) entry.n++;
      else count.set(key, { n: 1, face });
    }
  }
  const triangles = [...count.values()].filter((e) => e.n === 1).flatMap((e) => e.face);
  const nv = positions.length / 3;
  const eVectors: number[] = [];
  const hVectors: number[] = [];
  const eMagnitude: number[] = [];
  const hMagnitude: number[] = [];
  for (let v = 0; v < nv; v++) {
    const x = positions[3 * v]!;
    const y = positions[3 * v + 1]!;
    const r = Math.hypot(x, y);
    const e = volts / (r * Math.log(b / a));
    const z = positions[3 * v + 2]!;
    const hh = (amps / (2 * Math.PI * r)) * (0.4 + (1.2 * z) / h);
    eVectors.push((e * x) / r, (e * y) / r, 0);
    hVectors.push((-hh * y) / r, (hh * x) / r, 0);
    eMagnitude.push(e);
    hMagnitude.push(hh);
  }
  const frameValues: number[] = [];
  const frameFields: { eVectors: number[]; hVectors: number[] }[] = [];
  for (let f = 0; f < frames; f++) {
    const phase = (360 * f) / frames;
    const c = Math.cos((phase * Math.PI) / 180);
    const s = Math.sin((phase * Math.PI) / 180);
    frameValues.push(phase);
    frameFields.push({ eVectors: eVectors.map((x) => x * c), hVectors: hVectors.map((x) => x * s) });
  }
  return {
    positions,
    triangles,
    tetrahedra,
    tetrahedronBodies,
    eVectors,
    hVectors,
    eMagnitude,
    hMagnitude,
    frames: frameFields,
    frameValues,
  };
}
