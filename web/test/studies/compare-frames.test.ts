import type { ViewerAnimation, ViewerField, ViewerMesh } from '@fieldline/contracts';
import { describe, expect, it } from 'vitest';
import { differenceFrames, differencePayload } from '../../src/environment/studies/compare/compare-fields.ts';
import type { ViewerPayload } from '../../src/results-format/index.ts';

// One tetrahedron with a scalar and a vector field; frames as results.bin gives them (field name → values).
const mesh: ViewerMesh = {
  positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
  triangles: new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]),
  tetrahedra: new Uint32Array([0, 1, 2, 3]),
  bodies: [],
  units: 'mm',
};
const f32 = (v: number[]) => new Float32Array(v);
const field = (label: string, kind: 'scalar' | 'vector', values: number[]): ViewerField => ({
  label,
  unit: 'Pa',
  kind,
  location: 'vertex',
  values: f32(values),
});
const fields = (scale: number) => ({
  level: field(
    'Level',
    'scalar',
    [1, 2, 3, 4].map((v) => v * scale),
  ),
  shift: field('Shift', 'vector', new Array(12).fill(scale)),
});
const payload = (scale: number, animation?: ViewerAnimation): ViewerPayload => ({
  mesh,
  fields: fields(scale),
  ...(animation ? { animation } : {}),
});
/** `count` frames on `axis`: frame k is the field × scale × (k + 1). */
const frames = (
  scale: number,
  count: number,
  axis: ViewerAnimation['axis'],
  values: number[],
  magnitudesOnly = false,
): ViewerAnimation => ({
  axis,
  unit: axis === 'phase' ? 'deg' : axis === 'time' ? 's' : 'Hz',
  frameValues: values,
  frames: Array.from({ length: count }, (_, k) => ({
    level: f32([1, 2, 3, 4].map((v) => v * scale * (k + 1))),
    shift: magnitudesOnly
      ? f32([1, 1, 1, 1].map((v) => v * scale))
      : f32(new Array(12).fill(scale * (k + 1))),
  })),
});

describe('the difference of two points with animation frames', () => {
  it('subtracts frame by frame when both have the same phases (A − B at every frame, the same axis and values)', () => {
    const phases = [0, 90, 180, 270];
    const a = payload(5, frames(5, 4, 'phase', phases));
    const b = payload(2, frames(2, 4, 'phase', phases));
    const d = differencePayload(a, b);
    expect(d.animation?.axis).toBe('phase');
    expect(d.animation?.frameValues).toEqual(phases);
    expect(d.animation?.frames).toHaveLength(4);
    for (let k = 0; k < 4; k++) {
      expect([...(d.animation?.frames[k]?.level ?? [])]).toEqual([1, 2, 3, 4].map((v) => 3 * v * (k + 1)));
      expect([...(d.animation?.frames[k]?.shift ?? [])]).toEqual(new Array(12).fill(3 * (k + 1)));
    }
    expect(differenceFrames(a, b, d.fields ?? {}).note).toBeNull();
  });

  it('pairs mode k with mode k and labels each with both frequencies', () => {
    const a = payload(1, frames(1, 2, 'mode', [412.6, 1203]));
    const b = payload(1.5, frames(1.5, 2, 'mode', [398.1, 1150]));
    const d = differencePayload(a, b);
    expect(d.animation?.frameLabels).toEqual([
      'mode 1: A 412.6 Hz, B 398.1 Hz',
      'mode 2: A 1203 Hz, B 1150 Hz',
    ]);
    expect([...(d.animation?.frames[1]?.level ?? [])]).toEqual([-1, -2, -3, -4]);
  });

  it('is not animated, and says why, when the frames differ', () => {
    const diff = (a: ViewerPayload, b: ViewerPayload) => {
      const d = differencePayload(a, b);
      expect(d.animation).toBeUndefined();
      return differenceFrames(a, b, d.fields ?? {}).note;
    };
    expect(diff(payload(1, frames(1, 3, 'time', [1, 2, 3])), payload(2))).toBe(
      'The difference is not animated: point A has 3 time steps, point B no frames. It shows the fields A − B of the results themselves.',
    );
    expect(
      diff(payload(1, frames(1, 3, 'time', [1, 2, 3])), payload(2, frames(2, 2, 'time', [1, 2]))),
    ).toMatch(/point A has 3 time steps, point B 2 time steps/);
    expect(
      diff(payload(1, frames(1, 2, 'time', [1, 2])), payload(2, frames(2, 2, 'time', [1, 2.5]))),
    ).toMatch(/: frame 2 is at 2 s in A and 2\.5 s in B\./);
    expect(diff(payload(1, frames(1, 2, 'time', [1, 2])), payload(2, frames(2, 2, 'phase', [1, 2])))).toMatch(
      /point A has 2 time steps, point B 2 phases/,
    );
    // neither has frames: nothing to say
    expect(diff(payload(1), payload(2))).toBeNull();
  });

  it('keeps a field still when its frames hold magnitudes only, and says so', () => {
    const a = payload(3, frames(3, 2, 'time', [1, 2], true));
    const b = payload(1, frames(1, 2, 'time', [1, 2], true));
    const d = differencePayload(a, b);
    expect(Object.keys(d.animation?.frames[0] ?? {})).toEqual(['level']);
    expect(differenceFrames(a, b, d.fields ?? {}).note).toBe(
      'Shift is kept per frame as magnitudes only (|A| − |B| is not |A − B|): it stays still while the rest animates.',
    );
  });
});
