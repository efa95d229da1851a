// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatTick, normalize, safeRange, siPrefix, ticks } from '../../src/viewer/color/color-scale.ts';
import { colorAt, colorMapLut, LUT_SIZE } from '../../src/viewer/color/colormaps.ts';

const hex = (rgb: number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

describe('colour maps', () => {
  it('have the published end points', () => {
    expect(hex(colorAt('viridis', 0))).toBe('#440154');
    expect(hex(colorAt('viridis', 1))).toBe('#fde725');
    expect(hex(colorAt('turbo', 0))).toBe('#23171b');
    // Moreland's cool-warm: blue end, near-white middle, red end.
    expect(colorAt('coolwarm', 0)).toEqual([59, 76, 192]);
    expect(colorAt('coolwarm', 1)).toEqual([180, 4, 38]);
    const mid = colorAt('coolwarm', 0.5);
    for (const c of mid) expect(c).toBeGreaterThan(210);
  });

  it('viridis lightness rises monotonically (perceptually ordered)', () => {
    const lum = (t: number) => {
      const [r, g, b] = colorAt('viridis', t).map((c) => (c / 255) ** 2.2) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    for (let i = 1; i <= 20; i++) expect(lum(i / 20)).toBeGreaterThan(lum((i - 1) / 20));
  });

  it('builds 256-entry RGBA tables', () => {
    const lut = colorMapLut('turbo');
    expect(lut.length).toBe(LUT_SIZE * 4);
    expect(Array.from(lut.subarray(0, 4))).toEqual([...colorAt('turbo', 0), 255]);
    expect(Array.from(lut.subarray(lut.length - 4))).toEqual([...colorAt('turbo', 1), 255]);
  });
});

describe('value → colour position', () => {
  it('maps linearly and clamps', () => {
    const r = safeRange(10, 20, false);
    expect(normalize(10, r)).toBe(0);
    expect(normalize(15, r)).toBeCloseTo(0.5, 12);
    expect(normalize(25, r)).toBe(1);
    expect(normalize(-5, r)).toBe(0);
  });

  it('maps decades evenly on a log scale and clamps non-positive values to the bottom', () => {
    const r = safeRange(1, 1000, true);
    expect(normalize(10, r)).toBeCloseTo(1 / 3, 12);
    expect(normalize(100, r)).toBeCloseTo(2 / 3, 12);
    expect(normalize(0, r)).toBe(0);
    expect(ticks(r)).toEqual([1, 10, 100, 1000]);
  });

  it('gives flat or invalid data a usable range', () => {
    const flat = safeRange(5, 5, false);
    expect(flat.max).toBeGreaterThan(flat.min);
    const log = safeRange(0, 100, true);
    expect(log.min).toBeGreaterThan(0);
    // a field zero everywhere (an undriven electrostatic run): 0…1, never a negative magnitude (qa31)
    expect(safeRange(0, 0, false)).toEqual({ min: 0, max: 1, log: false });
  });

  it('labels legends with one SI prefix and nice ticks', () => {
    expect(siPrefix(2770)).toEqual({ factor: 1e3, prefix: 'k' });
    expect(siPrefix(3e-7)).toEqual({ factor: 1e-9, prefix: 'n' });
    expect(ticks(safeRange(0, 2770, false))).toEqual([0, 500, 1000, 1500, 2000, 2500]);
    expect(formatTick(2500, 1e3)).toBe('2.5');
  });
});
