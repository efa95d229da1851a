import type { ViewerField, ViewerMesh } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import { pointTitle } from '../../src/environment/studies/compare/ComparePoints.tsx';
import { CameraLink } from '../../src/environment/studies/compare/camera-link.ts';
import {
  comparableFields,
  differencePayload,
  sharedRange,
  whyNotSameMesh,
} from '../../src/environment/studies/compare/compare-fields.ts';
import type { ViewerPayload } from '../../src/results-format/index.ts';

// One tetrahedron; field names are arbitrary: the comparison knows fields by kind, location and size only.
const mesh = (shift = 0): ViewerMesh => ({
  positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 + shift]),
  triangles: new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]),
  tetrahedra: new Uint32Array([0, 1, 2, 3]),
  bodies: [],
  units: 'mm',
});
const scalar = (values: number[]): ViewerField => ({
  label: 'Level',
  unit: 'Pa',
  kind: 'scalar',
  location: 'vertex',
  values: new Float32Array(values),
});
const vector = (values: number[], imag?: number[]): ViewerField => ({
  label: 'Shift',
  unit: 'm',
  kind: 'vector',
  location: 'vertex',
  role: 'deformation',
  values: new Float32Array(values),
  ...(imag ? { imag: new Float32Array(imag) } : {}),
});
const payload = (fields: Record<string, ViewerField>, m = mesh()): ViewerPayload => ({ mesh: m, fields });

describe('comparing two study points', () => {
  it('subtracts B from A field by field on one mesh (vectors and phasors component-wise, no deformation role)', () => {
    const a = payload({
      level: scalar([10, 20, 30, 40]),
      shift: vector([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
      only_a: scalar([1, 1, 1, 1]),
    });
    const b = payload({
      level: scalar([1, 5, 35, 0]),
      shift: vector([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
      only_a: { ...scalar([1, 1, 1]), values: new Float32Array([1, 1, 1]) },
    });
    expect(whyNotSameMesh(a, b)).toBeNull();
    expect(comparableFields(a, b)).toEqual(['level', 'shift']);
    const d = differencePayload(a, b);
    expect(Object.keys(d.fields ?? {})).toEqual(['level', 'shift']);
    expect([...(d.fields?.level?.values ?? [])]).toEqual([9, 15, -5, 40]);
    expect(d.fields?.level?.label).toBe('Level (A − B)');
    expect([...(d.fields?.shift?.values ?? [])]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect([...(d.fields?.shift?.imag ?? [])]).toEqual(new Array(12).fill(1));
    expect(d.fields?.shift?.role).toBeUndefined();
    expect(d.mesh).toBe(a.mesh);
  });

  it('offers no difference across meshes and says why', () => {
    const a = payload({ level: scalar([1, 2, 3, 4]) });
    const moved = payload({ level: scalar([1, 2, 3, 4]) }, mesh(0.5));
    expect(whyNotSameMesh(a, moved)).toMatch(/vertices are not the same/);
    const bigger = payload(
      { level: scalar([1, 2, 3, 4, 5]) },
      { ...mesh(), positions: new Float32Array(15), tetrahedra: new Uint32Array([0, 1, 2, 3, 1, 2, 3, 4]) },
    );
    expect(whyNotSameMesh(a, bigger)).toBe(
      'The two points were solved on different meshes (4 and 5 vertices): a difference field needs one mesh.',
    );
    expect(comparableFields(a, bigger)).toEqual([]);
  });

  it('one legend range over both panes', () => {
    expect(
      sharedRange([
        { min: 2, max: 10 },
        { min: -1, max: 4 },
      ]),
    ).toEqual({ min: -1, max: 10 });
    expect(sharedRange([])).toBeNull();
  });

  it('links cameras: a move in one pane moves the others, and a late pane starts where they are', () => {
    const link = new CameraLink();
    const seen: Record<string, number[][]> = { a: [], b: [], c: [] };
    const leaveA = link.join('a', (c) => seen.a!.push(c.position));
    link.join('b', (c) => seen.b!.push(c.position));
    const at = {
      position: [1, 2, 3] as [number, number, number],
      target: [0, 0, 0] as [number, number, number],
      up: [0, 0, 1] as [number, number, number],
    };
    link.moved('a', at);
    expect(seen).toEqual({ a: [], b: [[1, 2, 3]], c: [] });
    leaveA();
    link.moved('b', { ...at, position: [4, 5, 6] });
    expect(seen.a).toEqual([]);
    expect(link.last?.position).toEqual([4, 5, 6]);
  });

  it('names a pane by its point and settings, large numbers in exponent form', () => {
    const point = {
      index: 8,
      parameters: { 'forceLoads[0].force[2]': -500, 'bodyMaterials[0].youngsModulus': 69e9 },
    } as unknown as Parameters<typeof pointTitle>[1];
    expect(pointTitle('A', point)).toBe(
      'A: point 8 — forceLoads[0].force[2] = -500, bodyMaterials[0].youngsModulus = 6.9e+10',
    );
  });
});
