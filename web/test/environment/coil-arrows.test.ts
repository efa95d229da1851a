import type { MeshData } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import type { AnalysisForm } from '../../src/environment/config/analysis-form.ts';
import { defaultAnalysisForm } from '../../src/environment/config/form-defaults.ts';
import {
  coilArrows,
  symmetricEigenvectors,
} from '../../src/environment/families/em/magnetics/coil-arrows.ts';
import { newMagneticsRows } from '../../src/environment/families/em/magnetics/magnetics-form.ts';

type V = [number, number, number];

/**
 * A tetrahedral body in cylindrical cells about `axis` (a permutation of x, y, z): r from r0 to r1, height
 * 0…h, over the angles θ0…θ1 (a full turn: a ring; r0 = 0 leaves no hole). Each cell is split into six
 * tetrahedra. Appends to `mesh` as body `region`; returns the boundary face ids on θ = θ0 and θ = θ1.
 */
function addBody(
  mesh: { vertices: V[]; tetrahedra: number[][]; tetrahedron_regions: number[]; faces: number[][] },
  region: number,
  o: { r0: number; r1: number; h: number; theta0?: number; theta1?: number; along?: 'x' | 'y' | 'z' },
): { start: number[]; end: number[] } {
  const [nt, nr, nz] = [24, 2, 2];
  const t0 = o.theta0 ?? 0;
  const t1 = o.theta1 ?? 2 * Math.PI;
  const closed = o.theta1 === undefined;
  const place = (x: number, y: number, z: number): V =>
    o.along === 'x' ? [z, x, y] : o.along === 'y' ? [y, z, x] : [x, y, z];
  const base = mesh.vertices.length;
  const ti = closed ? nt : nt + 1;
  const id = (i: number, j: number, k: number) => base + ((i % ti) * (nr + 1) + j) * (nz + 1) + k;
  for (let i = 0; i < ti; i++)
    for (let j = 0; j <= nr; j++)
      for (let k = 0; k <= nz; k++) {
        const th = t0 + ((t1 - t0) * i) / nt;
        const r = o.r0 + ((o.r1 - o.r0) * j) / nr;
        mesh.vertices.push(place(r * Math.cos(th), r * Math.sin(th), (o.h * k) / nz));
      }
  const start: number[] = [];
  const end: number[] = [];
  for (let i = 0; i < nt; i++)
    for (let j = 0; j < nr; j++)
      for (let k = 0; k < nz; k++) {
        const c = [
          id(i, j, k),
          id(i + 1, j, k),
          id(i + 1, j + 1, k),
          id(i, j + 1, k),
          id(i, j, k + 1),
          id(i + 1, j, k + 1),
          id(i + 1, j + 1, k + 1),
          id(i, j + 1, k + 1),
        ] as number[];
        for (const t of [
          [0, 1, 2, 6],
          [0, 2, 3, 6],
          [0, 3, 7, 6],
          [0, 7, 4, 6],
          [0, 4, 5, 6],
          [0, 5, 1, 6],
        ]) {
          mesh.tetrahedra.push(t.map((q) => c[q]!));
          mesh.tetrahedron_regions.push(region);
        }
        if (!closed && i === 0) {
          start.push(
            mesh.faces.push([c[0]!, c[3]!, c[7]!, region]),
            mesh.faces.push([c[0]!, c[7]!, c[4]!, region]),
          );
        }
        if (!closed && i === nt - 1) {
          end.push(
            mesh.faces.push([c[1]!, c[2]!, c[6]!, region]),
            mesh.faces.push([c[1]!, c[6]!, c[5]!, region]),
          );
        }
      }
  return { start, end };
}

function emptyMesh() {
  return {
    vertices: [] as V[],
    tetrahedra: [] as number[][],
    tetrahedron_regions: [] as number[],
    faces: [] as number[][],
  };
}

const asMesh = (m: ReturnType<typeof emptyMesh>) => m as unknown as MeshData;

function coilForm(
  patch: Partial<AnalysisForm['coils'][number]>,
  extra: Partial<AnalysisForm> = {},
): AnalysisForm {
  const coil = { ...newMagneticsRows.coil(0, '0'), ...patch };
  return { ...defaultAnalysisForm(), analysisType: 'magnetostatic', coils: [coil], ...extra };
}

/** The sense of an arrow about the line through `centre` along `axis`: +1 right-handed, −1 not. */
function sense(a: { origin: V; direction: V }, centre: V, axis: V): number {
  const mid = a.origin.map((x, i) => x + a.direction[i]! / 2 - centre[i]!) as V;
  const c: V = [
    mid[1] * a.direction[2] - mid[2] * a.direction[1],
    mid[2] * a.direction[0] - mid[0] * a.direction[2],
    mid[0] * a.direction[1] - mid[1] * a.direction[0],
  ];
  return Math.sign(c[0] * axis[0] + c[1] * axis[1] + c[2] * axis[2]);
}

describe("a coil's current direction drawn before the run", () => {
  it('goes round a closed ring right-handed about the axis the engine would find (+z), at its mean radius', () => {
    const mesh = emptyMesh();
    addBody(mesh, 0, { r0: 10, r1: 12, h: 4 });
    const arrows = coilArrows(coilForm({}), asMesh(mesh));
    expect(arrows).toHaveLength(8);
    for (const a of arrows) {
      expect(sense(a, [0, 0, 2], [0, 0, 1])).toBe(1);
      // tangential: no part along the axis, none radial
      const mid = a.origin.map((x, i) => x + a.direction[i]! / 2) as V;
      expect(Math.abs(a.direction[2])).toBeLessThan(1e-9);
      expect(Math.abs(mid[0] * a.direction[0] + mid[1] * a.direction[1])).toBeLessThan(1e-6);
      expect(Math.hypot(mid[0], mid[1])).toBeGreaterThan(10);
      expect(Math.hypot(mid[0], mid[1])).toBeLessThan(12);
      expect(mid[2]).toBeCloseTo(2, 6);
      expect(a.tone).toBe('load');
    }
  });

  it('finds the axis of a tall solenoid, whose largest moment is across it', () => {
    const mesh = emptyMesh();
    addBody(mesh, 0, { r0: 5, r1: 6, h: 60, along: 'y' });
    const arrows = coilArrows(coilForm({}), asMesh(mesh));
    expect(arrows).toHaveLength(8);
    for (const a of arrows) expect(sense(a, [0, 30, 0], [0, 1, 0])).toBe(1);
  });

  it('turns round for a negative current and follows a given axis', () => {
    const mesh = emptyMesh();
    addBody(mesh, 0, { r0: 10, r1: 12, h: 4 });
    const reversed = coilArrows(coilForm({ current: '-2' }), asMesh(mesh));
    expect(reversed.every((a) => sense(a, [0, 0, 2], [0, 0, 1]) === -1)).toBe(true);
    const down = coilForm({ axis: ['0', '0', '-1'] });
    expect(coilArrows(down, asMesh(mesh)).every((a) => sense(a, [0, 0, 2], [0, 0, 1]) === -1)).toBe(true);
  });

  it('draws nothing for a body with no hole (the engine asks for terminals or wraps)', () => {
    const mesh = emptyMesh();
    addBody(mesh, 0, { r0: 0, r1: 12, h: 4 });
    expect(coilArrows(coilForm({}), asMesh(mesh))).toEqual([]);
  });

  it('goes into an open coil at its in faces and out at its out faces', () => {
    const mesh = emptyMesh();
    // a half ring from θ = 0 (the y = 0 plane, x > 0) to θ = π
    const { start, end } = addBody(mesh, 0, { r0: 10, r1: 12, h: 4, theta0: 0, theta1: Math.PI });
    const coil = { ...newMagneticsRows.coil(0, '0'), routing: 'terminals' as const };
    const form: AnalysisForm = {
      ...defaultAnalysisForm(),
      analysisType: 'magnetostatic',
      coils: [coil],
      coilTerminals: [
        { ...newMagneticsRows.terminal(coil.key, 'in'), faces: start.join(', ') },
        { ...newMagneticsRows.terminal(coil.key, 'out'), faces: end.join(', ') },
      ],
    };
    const [into, out] = coilArrows(form, asMesh(mesh));
    // at θ = 0 the body lies towards +y: the current enters along +y, ending on the face
    expect(into?.direction[1]).toBeGreaterThan(0);
    expect(into!.origin[1] + into!.direction[1]).toBeCloseTo(0, 6);
    // at θ = π it leaves the body (which lies towards +y) along −y, starting on the face
    expect(out?.direction[1]).toBeLessThan(0);
    expect(out!.origin[1]).toBeCloseTo(0, 6);
    expect(out!.origin[0]).toBeLessThan(0);
  });

  it("draws a solid conductor's picked ends", () => {
    const mesh = emptyMesh();
    const { start, end } = addBody(mesh, 0, { r0: 10, r1: 12, h: 4, theta0: 0, theta1: Math.PI });
    const bar = { ...newMagneticsRows.solidConductor(0, '0'), terminals: 'picked' as const };
    const form: AnalysisForm = {
      ...defaultAnalysisForm(),
      solidConductors: [bar],
      conductorTerminals: [
        { ...newMagneticsRows.conductorTerminal(bar.key, 'in'), faces: start.join(', ') },
        { ...newMagneticsRows.conductorTerminal(bar.key, 'out'), faces: end.join(', ') },
      ],
    };
    expect(coilArrows(form, asMesh(mesh))).toHaveLength(2);
    // the same half ring with its ends left to the engine: they are known only after the run
    expect(coilArrows({ ...form, solidConductors: [{ ...bar, terminals: 'auto' }] }, asMesh(mesh))).toEqual(
      [],
    );
  });

  it('goes round a closed solid ring (a shorted turn) as the engine will, reversed for a negative current', () => {
    const mesh = emptyMesh();
    addBody(mesh, 0, { r0: 10, r1: 12, h: 4 });
    const ring = { ...newMagneticsRows.solidConductor(0, '0'), terminals: 'auto' as const };
    for (const analysisType of ['magnetostatic', 'eddy-current'] as const) {
      const form: AnalysisForm = { ...defaultAnalysisForm(), analysisType, solidConductors: [ring] };
      const arrows = coilArrows(form, asMesh(mesh));
      expect(arrows).toHaveLength(8);
      expect(arrows.every((a) => sense(a, [0, 0, 2], [0, 0, 1]) === 1)).toBe(true);
    }
    const reversed = coilArrows(
      { ...defaultAnalysisForm(), solidConductors: [{ ...ring, current: '-5' }] },
      asMesh(mesh),
    );
    expect(reversed.every((a) => sense(a, [0, 0, 2], [0, 0, 1]) === -1)).toBe(true);
  });

  it("goes round a toroid's core section, along +axis on the inner wall", () => {
    const mesh = emptyMesh();
    addBody(mesh, 0, { r0: 20, r1: 30, h: 10 });
    // the winding shell: a ring just inside the core (its inner wall) and one outside it
    addBody(mesh, 1, { r0: 17, r1: 19, h: 10 });
    const form = coilForm({ body: '1', routing: 'wraps', wraps: '0' });
    const arrows = coilArrows(form, asMesh(mesh));
    expect(arrows.length).toBeGreaterThan(4);
    // the shell lies inside the core's mean radius: the current runs along +z there
    for (const a of arrows) expect(a.direction[2]).toBeGreaterThan(0);
  });

  it('solves the eigenvectors of a symmetric matrix, largest eigenvalue first', () => {
    const [first, second, third] = symmetricEigenvectors([
      [2, 1, 0],
      [1, 2, 0],
      [0, 0, 5],
    ]);
    expect(Math.abs(first![2])).toBeCloseTo(1, 9);
    expect(Math.abs(second![0] * second![1])).toBeCloseTo(0.5, 9); // (1, 1)/√2, eigenvalue 3
    expect(second![0] * second![1]).toBeGreaterThan(0);
    expect(third![0] * third![1]).toBeLessThan(0); // (1, −1)/√2, eigenvalue 1
  });
});
